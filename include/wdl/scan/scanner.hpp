#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wdl/scan/count_map.hpp"
#include "wdl/scan/game_counter.hpp"

namespace wdl::scan {

struct ScanSettings {
    CountingRules rules;
    int threads = 1;
    // Decompressed text is cut into chunks of whole games of about this size, so that the
    // threads share the work of one huge file as well as of many small ones.
    std::size_t chunk_bytes = std::size_t{4} << 20;
};

// Counters a progress line can read while the scan runs.
struct ScanProgress {
    std::atomic<std::uint64_t> files_done{0};
    std::atomic<std::uint64_t> compressed_bytes{0};
    std::atomic<std::uint64_t> text_bytes{0};
    std::atomic<std::uint64_t> games_read{0};
};

struct ScanResult {
    CountMap counts;
    GameTally tally;
    std::uint64_t files_read = 0;     // opened and read to the end (possibly damaged)
    std::uint64_t files_damaged = 0;  // truncated or corrupt: their complete games counted
    std::uint64_t files_unreadable = 0;
    std::uint64_t text_bytes = 0;  // decompressed PGN text
    // One line per problem, in file order and game order: unreadable or damaged files, and
    // games dropped because their record is broken.
    std::vector<std::string> warnings;
};

// Scans the files with `settings.threads` threads, each counting into its own map; the maps
// are merged at the end. Throws FatalScanError (e.g. a FEN missing from --fixFENsource).
ScanResult scan_files(const std::vector<std::filesystem::path>& files, const ScanSettings& settings,
                      ScanProgress* progress = nullptr);

}  // namespace wdl::scan
