#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "wdl/counts/count_map.hpp"

// Counts by packed key kept on disk when they do not fit in memory: a CountMap is written out
// as a run sorted by key and emptied, and the runs are merged back in key order at the end.
namespace wdl::counts {

// Runs read at once by a merge: each holds an open file and a buffer of kRunBufferBytes.
inline constexpr std::size_t kDefaultMergeWidth = 64;
inline constexpr std::size_t kRunBufferBytes = std::size_t{1} << 20;

// The runs of one scan, in a folder of their own ("<prefix>.XXXXXX", made on the first spill)
// which is removed with this object, whether the scan ends well or not.
class CellRuns {
  public:
    // At most `merge_width` (>= 2) runs are read at once; more are merged in passes.
    explicit CellRuns(std::filesystem::path folder_prefix,
                      std::size_t merge_width = kDefaultMergeWidth);
    ~CellRuns();
    CellRuns(const CellRuns&) = delete;
    CellRuns& operator=(const CellRuns&) = delete;

    // Writes the map's pairs as a run sorted by key and empties the map (keeping its size).
    // Threads may spill their own maps at once. Throws wdl::Error naming the file on a write
    // that fails (a full disk).
    void spill(CountMap& counts);
    std::size_t runs() const;
    // The runs merged so far into fewer, wider ones (several passes when there were more than
    // the merge width).
    int merge_passes() const { return merge_passes_; }

    // The pairs of every run in ascending key order, each key once with its counts added.
    class Merged {
      public:
        explicit Merged(const std::vector<std::filesystem::path>& runs);
        ~Merged();
        Merged(const Merged&) = delete;
        Merged& operator=(const Merged&) = delete;
        // The next pair; false after the last.
        bool next(std::uint64_t& key, std::uint64_t& count);

      private:
        struct Reader;
        std::vector<std::unique_ptr<Reader>> readers_;
        std::vector<std::size_t> heap_;  // of readers_ with a pair, the smallest key first
    };
    // Merges the runs in passes until at most the merge width remain, then reads them merged.
    // Call it once the spills are over; it may be called again (a count, then a write).
    std::unique_ptr<Merged> merged();

  private:
    std::filesystem::path new_run_path();  // under the lock

    std::string folder_prefix_;
    std::size_t merge_width_;
    mutable std::mutex mutex_;
    std::filesystem::path folder_;
    std::vector<std::filesystem::path> runs_;
    std::size_t names_ = 0;
    int merge_passes_ = 0;
};

}  // namespace wdl::counts
