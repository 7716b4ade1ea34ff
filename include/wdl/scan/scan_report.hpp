#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/scan/scanner.hpp"

namespace wdl::scan {

// The closing summary: files, games read/accepted/skipped by reason, positions, speed.
std::string format_scan_summary(const ScanResult& result, double seconds);
// The same of any scan of games: its tally, files and the distinct keys of its counts.
std::string format_scan_summary(const GameTally& tally, const games::ReadSummary& files,
                                std::size_t distinct_keys, double seconds);

}  // namespace wdl::scan
