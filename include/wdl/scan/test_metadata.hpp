#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wdl::scan {

// The fields of a fishtest test's metadata (<testid>.json) that the file filters use.
struct TestMetadata {
    std::optional<std::string> book;
    std::optional<std::string> tc;
    std::optional<std::string> new_tc;
    std::optional<int> threads;
    std::optional<std::string> resolved_base;
    std::optional<std::string> resolved_new;
    bool sprt = false;
    std::optional<std::array<std::int64_t, 5>> pentanomial;
};

// Parses the downloader's JSON; throws std::runtime_error if it is not a JSON object.
TestMetadata parse_test_metadata(const std::string& json_text);

// "<dir>/<testid>" for a game file "<dir>/<testid>-<run>.pgn.gz" or "<dir>/<testid>.pgn":
// the test id is the file name up to the first '-' or '.'.
std::string test_id_of(const std::filesystem::path& game_file);
std::filesystem::path test_stem_of(const std::filesystem::path& game_file);

// Normalized Elo of a test from its pentanomial counts (LL, LD, WL+DD, WD, WW).
double normalized_elo(const std::array<std::int64_t, 5>& pentanomial);

// Metadata of every test that the game files belong to, keyed by test stem; tests without a
// readable <testid>.json are absent. Malformed metadata is reported to `warnings` and treated
// as missing.
using MetadataByTest = std::map<std::filesystem::path, TestMetadata>;
MetadataByTest load_metadata(const std::vector<std::filesystem::path>& game_files,
                             std::vector<std::string>& warnings);

}  // namespace wdl::scan
