#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/scan/game_counter.hpp"

// scoreWDLstat's scan: the positions of all games counted on several threads.
namespace wdl::scan {

struct ScanSettings {
    CountingRules rules;
    int threads = 1;
    games::ReadSettings reading;
};

struct ScanResult {
    counts::PositionCounts counts;  // grouped with CountingRules::grouping
    GameTally tally;
    games::ReadSummary files;
};

// Scans the files with `settings.threads` threads, each counting into its own map; the maps
// are merged at the end. Throws wdl::Error when the scan cannot go on (a FEN missing from
// --fixFENsource).
ScanResult scan_files(const std::vector<std::filesystem::path>& files, const ScanSettings& settings,
                      games::ReadProgress* progress = nullptr);

}  // namespace wdl::scan
