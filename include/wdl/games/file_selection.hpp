#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/fishtest/run_metadata.hpp"

namespace re2 {
class RE2;
}

// Which game files a scan reads: scoreWDLstat's --file/--dir/-r and its metadata filters.
namespace wdl::games {

// The game files under `dir` (recursively if asked; none if not `games`), and the files whose
// names end in one of `also_listed`, sorted by path. Throws wdl::Error naming the directory if
// it cannot be listed.
std::vector<std::filesystem::path> list_game_files(const std::filesystem::path& dir, bool recursive,
                                                   const std::vector<std::string>& also_listed = {},
                                                   bool games = true);

// Whether the file's name ends in one of `also_listed`.
bool is_listed_too(const std::filesystem::path& path, const std::vector<std::string>& also_listed);

// The first pair of neighbours in the sorted list where one name is a prefix of the next
// ("x.pgn" and "x.pgn.gz") or both compress the same name: the same games twice, which the
// original refuses.
std::optional<std::pair<std::filesystem::path, std::filesystem::path>> find_duplicate_files(
    const std::vector<std::filesystem::path>& sorted_files);

// Test ids found in more than one directory, as "Detected a duplicate of test ID in directory
// DIR" messages (one per extra directory).
std::vector<std::string> find_duplicate_tests(const std::vector<std::filesystem::path>& files);

// Where the games come from.
struct GameFileSource {
    std::optional<std::filesystem::path> file;       // --file: this one file
    std::optional<std::filesystem::path> file_list;  // --fileList: the files it lists
    std::filesystem::path dir = "./pgns";            // --dir otherwise
    bool recursive = false;                          // -r
    bool allow_duplicates = false;                   // --allowDuplicates: warn, do not stop
    // Names ending so are listed from --dir as well (scoreWDLstat: training data), and whether
    // game files are (not when training data is asked for).
    std::vector<std::string> also_listed;
    bool lists_games = true;
    // Which of the files found are training data, not games (scoreWDLstat: by --format or by
    // name), for the "Found ..." line; unset, those that `also_listed` names.
    std::function<bool(const std::filesystem::path&)> is_training_data;
};

// The files' sizes added up (a file whose size cannot be read counts 0): the progress line's
// whole.
std::uint64_t total_file_bytes(const std::vector<std::filesystem::path>& files);

// The files of the source, sorted, with the original's "Looking ..." line on `log`. A file list
// holds one path per line (relative to the current directory); blank lines and lines starting
// with '#' are skipped. Throws wdl::Error for a missing file, list or directory, and for
// duplicate files; duplicate tests are an error too unless allowed (then a warning on `log`).
std::vector<std::filesystem::path> find_game_files(const GameFileSource& source, std::ostream& log);

// One of N parts of a corpus (--shard I/N, I from 0 to N - 1), for scans on many machines.
struct Shard {
    int index = 0;
    int count = 1;
};

// "I/N" with 0 <= I < N; throws wdl::Error otherwise.
Shard parse_shard(std::string_view text);

// The files of one shard. Tests stay whole: the files of a test (same folder, same test id, the
// one metadata file) go to one shard; a file of training data is a test of its own
// (fishtest::test_id_of). Tests are dealt out largest first, each to the shard with
// the fewest bytes so far, ties broken by the paths relative to `root`; every machine that sees
// the same tree under `root` thus computes the same partition, and the N shards together hold
// every file exactly once.
std::vector<std::filesystem::path> shard_files(const std::vector<std::filesystem::path>& files,
                                               const std::filesystem::path& root, Shard shard);

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

// The filters with their regexes compiled once.
class FileFilter {
  public:
    // Throws wdl::Error naming the option whose regex does not compile.
    explicit FileFilter(FileFilters filters);
    ~FileFilter();
    FileFilter(FileFilter&&) noexcept;

    // Applies the filters in the original's order (SPRT, book, revision, TC, threads, Elo),
    // printing the original's "Filtering pgn files ..." lines to `log`. A file whose test has
    // no metadata (or lacks the field) is dropped by every filter.
    std::vector<std::filesystem::path> apply(std::vector<std::filesystem::path> files,
                                             const fishtest::MetadataByFile& metadata,
                                             std::ostream& log) const;

  private:
    FileFilters filters_;
    std::unique_ptr<re2::RE2> book_, revision_, time_control_;
};

}  // namespace wdl::games
