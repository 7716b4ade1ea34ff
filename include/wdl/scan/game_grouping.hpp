#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wdl/counts/grouping.hpp"

// Which group each game of a scan goes into (scoreWDLstat --groups, docs/formats.md).
namespace wdl::scan {

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

    const counts::Grouping& grouping() const { return grouping_; }
    // The group of the game that starts at byte `offset` of the text of file `file_index`.
    int group_of(std::size_t file_index, std::uint64_t offset) const {
        return grouping_.by == counts::GroupBy::Test
                   ? test_groups_[file_index]
                   : counts::group_of_game(names_[file_index], offset, grouping_.groups);
    }

  private:
    counts::Grouping grouping_;
    std::vector<std::string> names_;  // relative paths, '/'-separated
    std::vector<int> test_groups_;
};

}  // namespace wdl::scan
