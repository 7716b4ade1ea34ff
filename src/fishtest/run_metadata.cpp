#include "wdl/fishtest/run_metadata.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>

#include "wdl/fishtest/layout.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::fishtest {
namespace {

const nlohmann::json& member_or_null(const nlohmann::json& object, const char* key) {
    static const nlohmann::json null;
    if (!object.is_object()) return null;
    auto found = object.find(key);
    return found == object.end() ? null : *found;
}

std::optional<std::string> string_member(const nlohmann::json& object, const char* key) {
    const auto& value = member_or_null(object, key);
    if (!value.is_string()) return std::nullopt;
    return value.get<std::string>();
}

// A count as fishtest stores it: a non-negative JSON integer (floats such as 1e30 are not).
std::optional<std::int64_t> count_value(const nlohmann::json& value) {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() <= std::uint64_t(INT64_MAX))
        return std::int64_t(value.get<std::uint64_t>());
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
        return value.get<std::int64_t>();
    return std::nullopt;
}

std::optional<std::int64_t> count_member(const nlohmann::json& object, const char* key) {
    return count_value(member_or_null(object, key));
}

// Fishtest stores threads as a number, some old runs as a string.
std::optional<int> threads_member(const nlohmann::json& args) {
    const auto& value = member_or_null(args, "threads");
    long long threads = 0;
    if (value.is_number_integer()) {
        threads = value.get<long long>();
    } else if (value.is_string()) {
        auto text = value.get<std::string>();
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), threads);
        if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    } else {
        return std::nullopt;
    }
    if (threads < std::numeric_limits<int>::min() || threads > std::numeric_limits<int>::max())
        return std::nullopt;
    return int(threads);
}

std::optional<std::array<std::int64_t, 5>> pentanomial_member(const nlohmann::json& results) {
    const auto& value = member_or_null(results, "pentanomial");
    if (!value.is_array() || value.size() != 5) return std::nullopt;
    std::array<std::int64_t, 5> counts{};
    for (std::size_t i = 0; i < 5; ++i) {
        auto count = count_value(value[i]);
        if (!count) return std::nullopt;
        counts[i] = *count;
    }
    return counts;
}

std::string lower_case(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

bool outside_limits(const std::vector<std::string>& controls, const SelectionRules& rules) {
    if (controls.empty()) return true;
    return std::any_of(controls.begin(), controls.end(), [&](const std::string& control) {
        auto base = base_time(control);
        return !base || (rules.tc_lower_limit && *base < *rules.tc_lower_limit) ||
               (rules.tc_upper_limit && *base > *rules.tc_upper_limit);
    });
}

}  // namespace

std::optional<std::int64_t> RunMetadata::games() const {
    if (!wins && !draws && !losses) return std::nullopt;
    std::int64_t total = 0;
    for (const auto& count : {wins, draws, losses}) {
        if (count && __builtin_add_overflow(total, *count, &total))
            return std::numeric_limits<std::int64_t>::max();
    }
    return total;
}

RunMetadata parse_run_metadata(const nlohmann::json& run) {
    const auto& args = member_or_null(run, "args");
    const auto& results = member_or_null(run, "results");
    RunMetadata metadata;
    metadata.book = string_member(args, "book");
    metadata.tc = string_member(args, "tc");
    metadata.new_tc = string_member(args, "new_tc");
    metadata.threads = threads_member(args);
    metadata.resolved_base = string_member(args, "resolved_base");
    metadata.resolved_new = string_member(args, "resolved_new");
    metadata.start_time = string_member(run, "start_time");
    metadata.sprt = args.is_object() && args.contains("sprt");
    metadata.spsa = args.is_object() && args.contains("spsa");
    metadata.wins = count_member(results, "wins");
    metadata.draws = count_member(results, "draws");
    metadata.losses = count_member(results, "losses");
    metadata.pentanomial = pentanomial_member(results);
    return metadata;
}

std::vector<std::string> time_controls(const RunMetadata& run) {
    if (!run.tc || !run.new_tc || run.tc->empty() || run.new_tc->empty()) return {};
    if (*run.tc == *run.new_tc) return {*run.tc};
    return {*run.tc, *run.new_tc};
}

std::optional<double> base_time(std::string_view time_control) {
    std::size_t digits = 0;
    while (digits < time_control.size() && std::isdigit((unsigned char)time_control[digits]))
        ++digits;
    if (digits == 0) return std::nullopt;
    // A fractional part counts only if digits follow the point ("2.5+0.1", not "2.+0.1").
    if (digits + 1 < time_control.size() && time_control[digits] == '.' &&
        std::isdigit((unsigned char)time_control[digits + 1])) {
        ++digits;
        while (digits < time_control.size() && std::isdigit((unsigned char)time_control[digits]))
            ++digits;
    }
    double value = 0;
    auto [end, error] = std::from_chars(time_control.data(), time_control.data() + digits, value);
    if (error != std::errc()) return std::nullopt;
    return value;
}

std::string date_folder(const RunMetadata& run) {
    std::string start_time = run.start_time.value_or("");
    // "2024-07-21T11:26:57.000+00:00" -> "24-07-21"
    bool well_formed = start_time.size() >= 10 && start_time[4] == '-' && start_time[7] == '-';
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        well_formed = well_formed && std::isdigit((unsigned char)start_time[i]);
    if (!well_formed) throw Error("missing or malformed start_time \"" + start_time + "\"");
    return start_time.substr(2, 8);
}

double normalized_elo(const std::array<std::int64_t, 5>& pentanomial) {
    double pairs = 0;
    for (auto count : pentanomial) pairs += double(count);
    if (pairs <= 0) return std::nan("");
    static constexpr double kPairScores[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    double score = 0;
    for (int i = 0; i < 5; ++i) score += kPairScores[i] * double(pentanomial[i]) / pairs;
    double variance = 0;
    for (int i = 0; i < 5; ++i) {
        double deviation = kPairScores[i] - score;
        variance += double(pentanomial[i]) / pairs * deviation * deviation;
    }
    return (score - 0.5) / std::sqrt(2 * variance) * (800 / std::log(10.0));
}

std::string_view describe(RunSkipReason reason) {
    switch (reason) {
        case RunSkipReason::spsa:
            return "SPSA test";
        case RunSkipReason::no_games:
            return "no games";
        case RunSkipReason::frc_book:
            return "FRC book";
        case RunSkipReason::time_control:
            return "time control outside the limits";
    }
    return "unknown";
}

std::optional<RunSkipReason> reason_to_skip(const RunMetadata& run, const SelectionRules& rules) {
    if (run.spsa) return RunSkipReason::spsa;
    if (auto games = run.games(); games && *games <= 0) return RunSkipReason::no_games;
    if (rules.standard_chess_only &&
        lower_case(run.book.value_or("")).find("frc") != std::string::npos)
        return RunSkipReason::frc_book;
    if ((rules.tc_lower_limit || rules.tc_upper_limit) && outside_limits(time_controls(run), rules))
        return RunSkipReason::time_control;
    return std::nullopt;
}

std::string format_metadata(const nlohmann::json& run) {
    // nlohmann's objects keep keys sorted; indent 4, ": " and ASCII escapes match Python's.
    return run.dump(4, ' ', true);
}

void write_metadata(const std::filesystem::path& file, const nlohmann::json& run) {
    util::write_file_atomically(file, format_metadata(run));
}

MetadataByFile load_metadata(const std::vector<std::filesystem::path>& game_files,
                             std::vector<std::string>& warnings) {
    MetadataByFile metadata;
    std::set<std::filesystem::path> seen;
    for (const auto& game_file : game_files) {
        auto file = metadata_file_of(game_file);
        if (!seen.insert(file).second) continue;
        auto text = util::read_whole_file(file);
        if (!text) continue;
        auto json = nlohmann::json::parse(*text, nullptr, false);
        if (!json.is_object()) {
            warnings.push_back("Warning: ignoring malformed metadata " + file.string() +
                               ": not a JSON object");
            continue;
        }
        metadata.emplace(file, parse_run_metadata(json));
    }
    return metadata;
}

}  // namespace wdl::fishtest
