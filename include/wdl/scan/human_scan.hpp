#pragma once

#include <filesystem>
#include <vector>

#include "wdl/counts/count_map.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/scan/game_counter.hpp"
#include "wdl/scan/scanner.hpp"

// scoreWDLstat --human: the positions of human games counted on several threads.
namespace wdl::scan {

struct HumanScanResult {
    counts::CountMap counts;  // packed HumanKey and group (counts::pack_human_cell)
    GameTally tally;
    games::ReadSummary files;
};

// Scans the files with `settings.threads` threads (`settings.rules` as for scan_files, without
// an engine filter or FEN fixes), each counting into its own map; the maps are merged at the
// end, so that the counts do not depend on the threads.
HumanScanResult scan_human_files(const std::vector<std::filesystem::path>& files,
                                 const ScanSettings& settings,
                                 games::ReadProgress* progress = nullptr);

}  // namespace wdl::scan
