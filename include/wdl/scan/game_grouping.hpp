#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wdl/counts/group_labels.hpp"
#include "wdl/counts/grouping.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/games/file_selection.hpp"

// Which group each game of a scan goes into (scoreWDLstat --groups, --perTest,
// docs/formats.md).
namespace wdl::scan {

// The folder game files are taken relative to for the groups of their games: --dir, or the
// folder of --file; none for --fileList (its paths as listed). The same folder gives the same
// groups in every program (scoreWDLstat --groups, scaleWDL).
std::filesystem::path grouping_base(const games::GameFileSource& source);

class GameGrouping {
  public:
    // The groups of the games of `files`, whose paths are taken relative to `base` (the
    // scanned folder, or the folder of a single file) so that the groups do not depend on
    // where the corpus lies; an empty base takes the paths as they are (a list of files). By
    // test, the test ids of `listed` (every file found, before filters and shards) are
    // numbered in sorted order and test number i takes group i mod K: distinct tests never
    // share a group while there are enough groups, and the shards of a scan, or the scan with
    // other filters, give a test the same group.
    GameGrouping(const counts::Grouping& grouping, const std::vector<std::filesystem::path>& files,
                 const std::filesystem::path& base,
                 const std::vector<std::filesystem::path>& listed);

    // One unit per test of `files` (scoreWDLstat --perTest): the tests in sorted order of id,
    // test number i owning groups i * groups_per_test ... (i + 1) * groups_per_test - 1, into
    // which its games are hashed as by game. A file without fishtest metadata is a test of its
    // own name (fishtest::test_id_of). Grouped by test when groups_per_test is 1, else by game.
    static GameGrouping per_test(int groups_per_test,
                                 const std::vector<std::filesystem::path>& files,
                                 const std::filesystem::path& base);

    const counts::Grouping& grouping() const { return grouping_; }
    // The group of the game that starts at byte `offset` of the text of file `file_index`.
    int group_of(std::size_t file_index, std::uint64_t offset) const {
        int first = first_groups_[file_index];
        return hashed_groups_ > 1
                   ? first + counts::group_of_game(names_[file_index], offset, hashed_groups_)
                   : first;
    }

    // Of a per_test grouping: the label of each test, from its metadata (by metadata file, as
    // fishtest::load_metadata gives it) or, without, the date of its first file's last change.
    counts::GroupLabels test_labels(const std::vector<std::filesystem::path>& files,
                                    const fishtest::MetadataByFile& metadata) const;

  private:
    GameGrouping() = default;
    void name_files(const std::vector<std::filesystem::path>& files,
                    const std::filesystem::path& base);

    counts::Grouping grouping_;
    std::vector<std::string> names_;     // relative paths, '/'-separated
    std::vector<int> first_groups_;      // of each file: its group, or its test's first group
    int hashed_groups_ = 1;              // groups a file's games are spread over by their hash
    std::vector<std::string> test_ids_;  // per_test: the tests, in the order of their groups
};

}  // namespace wdl::scan
