#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "wdl/scan/test_metadata.hpp"

namespace wdl::scan {

// True for the names the scanner reads: *.pgn, *.pgn.gz, *.pgn.zst.
bool is_game_file_name(const std::string& name);

// The game files under `dir` (recursively if asked), sorted by path. Throws
// std::runtime_error naming the directory if it cannot be listed.
std::vector<std::filesystem::path> list_game_files(const std::filesystem::path& dir,
                                                   bool recursive);

// The first pair of neighbours in the sorted list where one name is a prefix of the next
// ("x.pgn" and "x.pgn.gz"): the same games twice, which the original refuses.
std::optional<std::pair<std::filesystem::path, std::filesystem::path>> find_duplicate_files(
    const std::vector<std::filesystem::path>& sorted_files);

// Test ids found in more than one directory, as "Detected a duplicate of test ID in directory
// DIR" messages (one per extra directory).
std::vector<std::string> find_duplicate_tests(const std::vector<std::filesystem::path>& files);

// The metadata filters of scoreWDLstat. Every regex must match the whole string.
struct FileFilters {
    bool sprt_only = false;
    std::string match_book;  // empty: no filter
    bool match_book_invert = false;
    std::string match_rev;
    std::string match_tc;
    std::optional<int> match_threads;
    std::optional<double> elo_diff_max;
    std::optional<double> elo_diff_min;
};

// Throws std::invalid_argument naming the option whose regex does not compile.
void validate_filters(const FileFilters& filters);

// Applies the filters in the original's order (SPRT, book, revision, TC, threads, Elo),
// printing the original's "Filtering pgn files ..." lines to `log`. A file whose test has no
// metadata (or lacks the field) is dropped by every filter.
std::vector<std::filesystem::path> apply_filters(std::vector<std::filesystem::path> files,
                                                 const MetadataByTest& metadata,
                                                 const FileFilters& filters, std::ostream& log);

}  // namespace wdl::scan
