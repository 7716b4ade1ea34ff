#include "wdl/model/stockfish_source.hpp"

#include <charconv>
#include <vector>

#include "wdl/util/error.hpp"
#include "wdl/util/process.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::model {
namespace {

constexpr std::string_view kSourceFiles[] = {"src/uci.h", "src/uci.cpp"};

std::string without_comment_lines(std::string_view source) {
    std::string text;
    std::size_t start = 0;
    while (start < source.size()) {
        std::size_t end = source.find('\n', start);
        if (end == std::string_view::npos) end = source.size();
        std::string_view line = source.substr(start, end - start);
        std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos || !line.substr(first).starts_with("//"))
            text.append(line).append("\n");
        start = end + 1;
    }
    return text;
}

std::string without_blanks(std::string_view text) {
    std::string compact;
    for (char c : text)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') compact += c;
    return compact;
}

// The numbers of "<name>[]={n1,n2,n3,n4}" in blank-free text.
std::optional<Coefficients> coefficients(const std::string& text, std::string_view name) {
    std::string marker = std::string(name) + "[]={";
    std::size_t at = text.find(marker);
    if (at == std::string::npos) return std::nullopt;
    const char* p = text.data() + at + marker.size();
    const char* end = text.data() + text.size();
    Coefficients c(4);
    for (int i = 0; i < 4; ++i) {
        auto [next, error] = std::from_chars(p, end, c[std::size_t(i)]);
        if (error != std::errc() || next == end || *next != (i < 3 ? ',' : '}'))
            return std::nullopt;
        p = next + 1;
    }
    return c;
}

// The first `count` numbers after `prefix` in blank-free text, skipping what lies between them:
// "std::clamp(material," then "17,78)/58.0" gives 17, 78, 58.
std::optional<std::vector<double>> arguments_after(const std::string& text, std::string_view prefix,
                                                   int count) {
    std::size_t at = text.find(prefix);
    if (at == std::string::npos) return std::nullopt;
    const char* p = text.data() + at + prefix.size();
    const char* end = text.data() + text.size();
    std::vector<double> numbers;
    while (int(numbers.size()) < count && p < end) {
        double value = 0;
        auto [next, error] = std::from_chars(p, end, value);
        if (error == std::errc()) {
            numbers.push_back(value);
            p = next;
        } else {
            ++p;  // a separator: ',', ')', '/'
        }
    }
    if (int(numbers.size()) < count) return std::nullopt;
    return numbers;
}

// `text`: the argument's expression, blank-free.
void set_mom(WdlModel& model, const std::string& text) {
    if (auto material = arguments_after(text, "std::clamp(material,", 3)) {
        model.mom_type = MomType::Material;
        model.mom_min = (*material)[0];
        model.mom_max = (*material)[1];
        model.mom_target = int((*material)[2]);
    } else if (auto move = arguments_after(text, "std::clamp(ply/2+1,", 3)) {
        model.mom_type = MomType::Move;
        model.mom_min = (*move)[0];
        model.mom_max = (*move)[1];
        model.mom_target = int((*move)[2]);
    } else if (auto ply = arguments_after(text, "std::min(", 2);
               ply && text.find(",ply)/") != std::string::npos) {
        model.mom_type = MomType::Ply;
        model.mom_max = (*ply)[0];
        model.mom_target = int((*ply)[1]);
    } else {
        throw Error("the source's WDL model depends on an argument wdlfit does not recognise");
    }
}

// The right-hand side of the first statement "<lhs> = <expression>;" whose blank-free start is
// `blank_free_lhs` ("doublem="), blanks collapsed: "std::min(240, ply) / 64.0".
std::optional<std::string> assigned_expression(const std::string& code,
                                               std::string_view blank_free_lhs) {
    std::size_t start = 0;
    while (start < code.size()) {
        std::size_t end = code.find('\n', start);
        if (end == std::string::npos) end = code.size();
        std::string_view line(code.data() + start, end - start);
        start = end + 1;
        if (!without_blanks(line).starts_with(blank_free_lhs)) continue;
        std::size_t equals = line.find('=');
        std::size_t semicolon = line.find(';', equals);
        if (semicolon == std::string_view::npos) return std::nullopt;
        std::string expression;
        for (char c : line.substr(equals + 1, semicolon - equals - 1)) {
            bool blank = c == ' ' || c == '\t' || c == '\r';
            if (!blank)
                expression += c;
            else if (!expression.empty() && expression.back() != ' ')
                expression += ' ';
        }
        if (!expression.empty() && expression.back() == ' ') expression.pop_back();
        return expression;
    }
    return std::nullopt;
}

// The integer of the first "<name>=<digits>" in blank-free text ("NormalizeToPawnValue==" of an
// assertion does not count).
std::optional<int> assigned_integer(const std::string& text, std::string_view name_and_equals) {
    for (std::size_t at = text.find(name_and_equals); at != std::string::npos;
         at = text.find(name_and_equals, at + 1)) {
        const char* p = text.data() + at + name_and_equals.size();
        int value = 0;
        auto [next, error] = std::from_chars(p, text.data() + text.size(), value);
        if (error == std::errc()) return value;
    }
    return std::nullopt;
}

}  // namespace

std::optional<StockfishModelSource> parse_stockfish_model_source(std::string_view source) {
    std::string code = without_comment_lines(source);
    std::string text = without_blanks(code);
    auto as = coefficients(text, "as");
    auto bs = coefficients(text, "bs");
    if (!as || !bs) return std::nullopt;
    StockfishModelSource found;
    found.model.as = *as;
    found.model.bs = *bs;
    // The argument is read from its own line: other std::min( calls precede it in uci.cpp.
    auto mom_expression = assigned_expression(code, "doublem=");
    if (!mom_expression)
        throw Error("the source's WDL model has no line computing its argument (double m = ...)");
    found.mom_expression = *mom_expression;
    set_mom(found.model, without_blanks(found.mom_expression));
    found.takes_pawn_value_eg_units = text.find("/PawnValueEg") != std::string::npos;
    found.eval_expression = assigned_expression(code, "doublex=");
    found.stated_pawn_value = assigned_integer(text, "NormalizeToPawnValue=");
    found.model.display = stockfish_display_rule(found.stated_pawn_value, found.eval_expression);
    if (found.takes_pawn_value_eg_units) use_pawn_value_eg(found.model, kReleasedPawnValueEg);
    return found;
}

std::optional<WdlModel> parse_stockfish_model(std::string_view source) {
    auto found = parse_stockfish_model_source(source);
    if (!found) return std::nullopt;
    return found->model;
}

std::optional<int> parse_pawn_value_eg(std::string_view types_header) {
    return assigned_integer(without_blanks(without_comment_lines(types_header)), "PawnValueEg=");
}

std::optional<std::string> read_revision_file(const std::filesystem::path& tree,
                                              const std::string& revision,
                                              const std::string& path) {
    auto shown = util::run_process({"git", "-C", tree.string(), "show", revision + ":" + path});
    if (!shown) throw Error("cannot read Stockfish revisions: git was not found on PATH");
    if (shown->exit_code != 0) return std::nullopt;
    return shown->output;
}

std::string read_stockfish_source(const std::filesystem::path& tree,
                                  const std::optional<std::string>& revision) {
    std::string source;
    for (std::string_view file : kSourceFiles) {
        if (!revision) {
            source += util::read_whole_file(tree / file).value_or("");
            continue;
        }
        if (auto text = read_revision_file(tree, *revision, std::string(file))) source += *text;
    }
    if (source.empty()) {
        throw Error("no src/uci.h or src/uci.cpp in " + tree.string() +
                    (revision ? " at revision " + *revision : std::string()));
    }
    return source;
}

}  // namespace wdl::model
