#pragma once

#include <cstddef>
#include <filesystem>
#include <limits>
#include <memory>
#include <vector>

#include "wdl/counts/cell_runs.hpp"
#include "wdl/counts/count_map.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/scan/game_counter.hpp"
#include "wdl/scan/scanner.hpp"
#include "wdl/util/atomic_file.hpp"

// scoreWDLstat --human: the positions of human games counted on several threads.
namespace wdl::scan {

// What a human scan holds in memory: nearly every position of a human game is a cell of its
// own, so a month of lichess's games would not fit. Cells beyond the budget go to disk.
struct HumanScanMemory {
    // Cells held in memory, summed over the threads (each holds its share): a thread whose map
    // passes its share after a game writes the map out as a run (counts::CellRuns).
    std::size_t cell_budget = std::numeric_limits<std::size_t>::max();
    // The runs' folder is "<runs_prefix>.XXXXXX", removed at the end.
    std::filesystem::path runs_prefix = "human-runs";
    std::size_t merge_width = counts::kDefaultMergeWidth;
};

// What a budget of memory holds: a cell takes 16 bytes in a hash table at most a quarter..half
// full, and as much again while the end merges the threads' tables and sorts them.
inline constexpr std::size_t kHumanCellBytes = 128;
std::size_t human_cell_budget(std::size_t megabytes);

struct HumanScanResult {
    // Packed HumanKey and group (counts::pack_human_cell): every cell, or when the scan
    // spilled (runs->runs() > 0), none, all being in the runs.
    counts::CountMap counts;
    std::unique_ptr<counts::CellRuns> runs;
    GameTally tally;
    games::ReadSummary files;
};

// Scans the files with `settings.threads` threads (`settings.rules` as for scan_files, without
// an engine filter or FEN fixes), each counting into its own map; the maps are merged at the
// end (in memory, or on disk with the runs), so that the counts do not depend on the threads.
HumanScanResult scan_human_files(const std::vector<std::filesystem::path>& files,
                                 const ScanSettings& settings, const HumanScanMemory& memory = {},
                                 games::ReadProgress* progress = nullptr);

// Writes the scan's cells (from memory or merged from its runs) as a human-games count file of
// `groups` groups, and commits it; returns the number of cells.
std::size_t write_human_scan(HumanScanResult& result, int groups, util::AtomicFile& output);

}  // namespace wdl::scan
