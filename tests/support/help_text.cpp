#include "help_text.hpp"

#include <algorithm>
#include <cstddef>
#include <sstream>

namespace wdl::testing {

namespace {

constexpr std::size_t kColumn = 30;  // CLI11's Formatter::column_width_

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string trim(const std::string& text) {
    auto first = text.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

bool is_continuation(const std::string& line) {
    return line.size() > kColumn && line.find_first_not_of(' ') == kColumn;
}

HelpEntry make_entry(const std::string& left, const std::string& description) {
    HelpEntry entry;
    auto names_end = left.find(' ');
    std::string names = left.substr(0, names_end);
    entry.type = names_end == std::string::npos ? "" : trim(left.substr(names_end));
    std::istringstream in(names);
    for (std::string name; std::getline(in, name, ',');) entry.names.push_back(name);
    entry.description = trim(description);
    return entry;
}

}  // namespace

std::vector<HelpEntry> help_entries(const std::string& help) {
    std::vector<HelpEntry> entries;
    auto lines = split_lines(help);
    bool in_section = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.empty()) continue;
        if (line[0] != ' ') {
            // "Options:", "Positionals:" or a group's name; "Usage: ..." and the program's
            // description are no sections.
            in_section = line.back() == ':' && line.rfind("Usage:", 0) != 0;
            continue;
        }
        if (!in_section || line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ') continue;
        // Names and type narrower than the column are padded to it (the last column at least
        // is a space), the description follows on the line. Wider ones fill the line, and the
        // description, if any, is on the next line. (One case reads wrong: names and type wider
        // than the column with a space just in its last place and no description; the
        // snapshot shows such an option all the same.)
        bool wide = line.size() < kColumn || line[kColumn - 1] != ' ';
        if (wide && i + 1 < lines.size() && is_continuation(lines[i + 1])) {
            entries.push_back(make_entry(trim(line), lines[++i]));
        } else if (wide || line.size() == kColumn) {
            entries.push_back(make_entry(trim(line), ""));
        } else {
            entries.push_back(make_entry(trim(line.substr(0, kColumn)), line.substr(kColumn)));
        }
    }
    return entries;
}

const HelpEntry* find_help_entry(const std::vector<HelpEntry>& entries, const std::string& name) {
    for (const auto& entry : entries)
        if (std::find(entry.names.begin(), entry.names.end(), name) != entry.names.end())
            return &entry;
    return nullptr;
}

std::string line_diff(const std::string& expected, const std::string& actual) {
    if (expected == actual) return "";
    auto a = split_lines(expected), b = split_lines(actual);
    // Longest common subsequence of lines; help texts are short.
    std::vector<std::vector<int>> common(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (std::size_t i = a.size(); i-- > 0;)
        for (std::size_t j = b.size(); j-- > 0;)
            common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1
                                        : std::max(common[i + 1][j], common[i][j + 1]);
    struct Line {
        char mark;
        const std::string* text;
        std::size_t line_a, line_b;
    };
    std::vector<Line> script;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (i < a.size() && j < b.size() && a[i] == b[j]) {
            script.push_back({' ', &a[i], i, j});
            ++i, ++j;
        } else if (i < a.size() && (j == b.size() || common[i + 1][j] >= common[i][j + 1])) {
            script.push_back({'-', &a[i], i, j});
            ++i;
        } else {
            script.push_back({'+', &b[j], i, j});
            ++j;
        }
    }
    constexpr std::size_t kContext = 2;
    std::ostringstream out;
    out << "--- expected\n+++ actual\n";
    std::size_t printed_until = 0;  // script positions before this are printed or skipped
    for (std::size_t k = 0; k < script.size(); ++k) {
        if (script[k].mark == ' ') continue;
        std::size_t from = std::max(printed_until, k >= kContext ? k - kContext : 0);
        if (from > printed_until || printed_until == 0)
            out << "@@ line " << script[from].line_a + 1 << " of expected, "
                << script[from].line_b + 1 << " of actual @@\n";
        std::size_t to = k;
        // Extend over changes closer together than twice the context.
        for (std::size_t n = k; n < script.size() && n <= to + 2 * kContext; ++n)
            if (script[n].mark != ' ') to = n;
        to = std::min(script.size() - 1, to + kContext);
        for (std::size_t n = from; n <= to; ++n) out << script[n].mark << *script[n].text << '\n';
        printed_until = to + 1;
        k = to;
    }
    if (expected.size() != actual.size() && a == b)
        out << "(the texts differ only in line endings or a missing last newline)\n";
    return out.str();
}

}  // namespace wdl::testing
