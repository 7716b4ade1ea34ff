#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wdl::fishtest {

// Which finished runs are worth downloading. The fields mirror the downloader's options.
struct SelectionRules {
    bool standard_chess_only = false;
    std::optional<double> tc_lower_limit;
    std::optional<double> tc_upper_limit;
};

enum class SkipReason { spsa, no_games, frc_book, time_control };

std::string_view describe(SkipReason reason);

// Why `run` (a fishtest run's metadata) should not be downloaded, or nothing to keep it.
std::optional<SkipReason> reason_to_skip(const nlohmann::json& run, const SelectionRules& rules);

// Wins + draws + losses, or nothing if the run has no results.
std::optional<long long> game_count(const nlohmann::json& run);

// The run's time controls: {tc} if both sides used it, {tc, new_tc} otherwise, empty if unknown.
std::vector<std::string> time_controls(const nlohmann::json& run);

// The leading number of a time control ("60+0.6" -> 60), if it starts with one.
std::optional<double> base_time(std::string_view time_control);

// "YY-MM-DD" of the run's start_time (ISO 8601, date as written); throws std::runtime_error if
// the field is missing or malformed.
std::string date_folder(const nlohmann::json& run);

}  // namespace wdl::fishtest
