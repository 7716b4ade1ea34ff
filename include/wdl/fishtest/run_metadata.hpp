#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A fishtest run's metadata (the server's run JSON, kept as <id>.json next to the games): the
// fields the downloader selects runs by and the scanner filters games by, read in one place.
namespace wdl::fishtest {

struct RunMetadata {
    std::optional<std::string> book;
    std::optional<std::string> tc, new_tc;  // base engine's and new engine's time controls
    std::optional<int> threads;
    std::optional<std::string> resolved_base, resolved_new;  // the engines' revisions
    std::optional<std::string> start_time;                   // ISO 8601
    bool sprt = false;
    bool spsa = false;
    // results: wins, draws and losses of the new engine, and the pentanomial counts of game
    // pairs (LL, LD, WL+DD, WD, WW).
    std::optional<std::int64_t> wins, draws, losses;
    std::optional<std::array<std::int64_t, 5>> pentanomial;

    // wins + draws + losses, if the run reports results.
    std::optional<std::int64_t> games() const;
};

// Reads the fields of a run object. A field that is missing, mistyped or out of range (counts
// must be non-negative integers) is absent; nothing else is an error.
RunMetadata parse_run_metadata(const nlohmann::json& run);

// The time controls the run was played at: {tc} if both engines used it, {tc, new_tc} for
// time odds, empty if unknown.
std::vector<std::string> time_controls(const RunMetadata& run);

// The leading number of a time control ("60+0.6" -> 60), if it starts with one.
std::optional<double> base_time(std::string_view time_control);

// "YY-MM-DD" of the run's start_time (the downloader's date folder); throws wdl::Error if it
// is missing or malformed.
std::string date_folder(const RunMetadata& run);

// Normalized Elo of the new engine from the pentanomial counts: (score - 1/2) / sqrt(2 var)
// * 800 / ln 10 over game pairs; NaN without pairs.
double normalized_elo(const std::array<std::int64_t, 5>& pentanomial);

// Which runs the downloader takes (its options --standard_chess_only, --tc_lower_limit,
// --tc_upper_limit).
struct SelectionRules {
    bool standard_chess_only = false;
    std::optional<double> tc_lower_limit;
    std::optional<double> tc_upper_limit;
};

enum class RunSkipReason { spsa, no_games, frc_book, time_control };

std::string_view describe(RunSkipReason reason);

// Why the run should not be downloaded, or nothing to take it.
std::optional<RunSkipReason> reason_to_skip(const RunMetadata& run, const SelectionRules& rules);

// The metadata file as Python's json.dump(meta, f, indent=4, sort_keys=True) writes it, so that
// files are byte-identical to those of the original downloader.
std::string format_metadata(const nlohmann::json& run);
// Writes format_metadata() atomically.
void write_metadata(const std::filesystem::path& file, const nlohmann::json& run);

// The metadata of the tests that game files belong to, keyed by metadata file (see
// metadata_file_of); tests without a readable file are absent. A file that is not a JSON
// object is reported to `warnings` and treated as missing.
using MetadataByFile = std::map<std::filesystem::path, RunMetadata>;
MetadataByFile load_metadata(const std::vector<std::filesystem::path>& game_files,
                             std::vector<std::string>& warnings);

}  // namespace wdl::fishtest
