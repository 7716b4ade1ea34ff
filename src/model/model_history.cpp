#include "wdl/model/model_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include "wdl/model/stockfish_source.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/process.hpp"

namespace wdl::model {
namespace {

namespace fs = std::filesystem;

struct Commit {
    std::string hash, date, subject;
};

std::string git_output(const fs::path& clone, std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"git", "-C", clone.string()});
    auto result = util::run_process(arguments);
    if (!result) throw Error("cannot walk a Stockfish history: git was not found on PATH");
    if (result->exit_code != 0) {
        std::string message = result->output.substr(0, result->output.find('\n'));
        throw Error("git cannot read " + clone.string() + ": " + message);
    }
    return result->output;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

// Oldest first; %cs, the committer date, is the date a commit entered the repository.
std::vector<Commit> commits_touching_model(const fs::path& clone, const std::string& revision) {
    std::vector<std::string> arguments{"log", "--reverse", "--format=%H%x09%cs%x09%s", revision,
                                       "--"};
    for (const char* file : kModelSourceFiles) arguments.emplace_back(file);
    std::vector<Commit> commits;
    for (const auto& line : lines_of(git_output(clone, arguments))) {
        auto first_tab = line.find('\t');
        auto second_tab = line.find('\t', first_tab + 1);
        commits.push_back({line.substr(0, first_tab),
                           line.substr(first_tab + 1, second_tab - first_tab - 1),
                           line.substr(second_tab + 1)});
    }
    return commits;
}

// The eval the model takes, up to spelling: its units and the numbers of its line (the clamp),
// so that Utility::clamp becoming std::clamp is no new model.
std::string eval_identity(const StockfishModelSource& source) {
    std::string identity = source.takes_pawn_value_eg_units ? "PawnValueEg" : "internal";
    const std::string expression = source.eval_expression.value_or("");
    const char* end = expression.data() + expression.size();
    for (std::size_t i = 0; i < expression.size(); ++i) {
        // A number starts at a digit (or its sign) that does not continue a name or a number.
        char c = expression[i];
        bool sign = (c == '-' || c == '+') && i + 1 < expression.size() &&
                    std::isdigit(static_cast<unsigned char>(expression[i + 1]));
        if (!sign && !std::isdigit(static_cast<unsigned char>(c))) continue;
        char before = i > 0 ? expression[i - 1] : ' ';
        if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '.')
            continue;
        double value = 0;
        auto [next, error] = std::from_chars(expression.data() + i + (c == '+'), end, value);
        if (error != std::errc()) continue;
        identity += fmt::format(" {}", value);
        i = std::size_t(next - expression.data()) - 1;
    }
    return identity;
}

bool same_model(const StockfishModelSource& a, const StockfishModelSource& b) {
    return a.model.as == b.model.as && a.model.bs == b.model.bs &&
           a.model.mom_type == b.model.mom_type && a.model.mom_min == b.model.mom_min &&
           a.model.mom_max == b.model.mom_max && a.model.mom_target == b.model.mom_target &&
           a.stated_pawn_value == b.stated_pawn_value && eval_identity(a) == eval_identity(b);
}

PublishedModel entry_of(const Commit& commit, const StockfishModelSource& source) {
    PublishedModel published;
    published.commit = commit.hash;
    published.date = commit.date;
    published.subject = commit.subject;
    published.model = source.model;
    published.stated_pawn_value = source.stated_pawn_value;
    published.mom_expression = source.mom_expression;
    published.eval_expression = source.eval_expression;
    published.eval_units = std::string(pawn_value_eg_units(source.takes_pawn_value_eg_units));
    return published;
}

// "sf_12", "sf_17.1": a release's tag (not sf_dd, not a dev build's).
bool is_release_tag(std::string_view tag) {
    if (!tag.starts_with("sf_")) return false;
    std::string_view version = tag.substr(3);
    bool digit_expected = true;
    for (char c : version) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digit_expected = false;
        } else if (c == '.' && !digit_expected) {
            digit_expected = true;
        } else {
            return false;
        }
    }
    return !digit_expected;
}

// Release tags oldest version first, so that an entry's last release is its newest.
std::vector<std::string> release_tags(const fs::path& clone, const std::string& revision) {
    std::vector<std::string> tags;
    for (const auto& tag : lines_of(git_output(clone, {"tag", "--list", kReleaseTagPattern,
                                                       "--merged", revision, "--sort=v:refname"})))
        if (is_release_tag(tag)) tags.push_back(tag);
    return tags;
}

bool is_ancestor(const fs::path& clone, const std::string& commit, const std::string& of) {
    auto result =
        util::run_process({"git", "-C", clone.string(), "merge-base", "--is-ancestor", commit, of});
    return result && result->exit_code == 0;
}

// A tag names the newest entry its tree descends from.
void assign_releases(const fs::path& clone, const std::string& revision,
                     std::vector<PublishedModel>& entries) {
    for (const auto& tag : release_tags(clone, revision)) {
        for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
            if (!is_ancestor(clone, entry->commit, tag)) continue;
            entry->release_tags.push_back(tag);
            entry->releases.push_back(release_name(tag));
            break;
        }
    }
    for (auto& entry : entries) entry.name = published_name(entry.releases, entry.date);
}

}  // namespace

HistoryWalk walk_model_history(const fs::path& clone, const std::string& revision,
                               const std::function<void(int, int)>& on_commit) {
    HistoryWalk walk;
    auto head = lines_of(git_output(clone, {"log", "-1", "--format=%H%n%cs", revision}));
    if (head.size() != 2)
        throw Error("git cannot read revision " + revision + " of " + clone.string());
    walk.registry.walked = RegistryOrigin{head[0], head[1]};
    walk.registry.source = "the history of " + clone.string();

    auto commits = commits_touching_model(clone, revision);
    std::optional<StockfishModelSource> current;
    for (const auto& commit : commits) {
        ++walk.commits_read;
        if (on_commit) on_commit(walk.commits_read, int(commits.size()));
        std::optional<StockfishModelSource> source;
        try {
            source = parse_stockfish_model_source(read_stockfish_source(clone, commit.hash));
        } catch (const Error& error) {
            walk.warnings.push_back(fmt::format("commit {} ({}): {}; its model is skipped",
                                                commit.hash.substr(0, 8), commit.date,
                                                error.what()));
            continue;
        }
        if (!source) continue;  // before the first model
        if (!current || !same_model(*current, *source))
            walk.registry.models.push_back(entry_of(commit, *source));
        current = source;
        if (source->takes_pawn_value_eg_units) {
            auto types = read_revision_file(clone, commit.hash, "src/types.h");
            auto pawn_value_eg = types ? parse_pawn_value_eg(*types) : std::nullopt;
            auto& entry = walk.registry.models.back();
            entry.pawn_value_eg = pawn_value_eg;
            if (pawn_value_eg) use_pawn_value_eg(entry.model, *pawn_value_eg);
        }
    }
    assign_releases(clone, revision, walk.registry.models);
    return walk;
}

}  // namespace wdl::model
