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

// The summary's JSON twin: {"files": {...}, "games": {"read", "accepted", "skipped": {reason:
// count}, "adjudicated", "timeForfeits"}, "positions", "distinctKeys", "seconds", "warnings"}.
nlohmann::ordered_json scan_summary_json(const ScanResult& result, double seconds);

// The fishtest tests whose game files a scan read, one object each in order of their metadata
// files: {"id", "startTime", "book", "timeControls", "threads", "sprt", "nElo", "resolvedBase",
// "resolvedNew"}, a field null where the metadata lacks it ("nElo" from the pentanomial counts).
// Files without metadata belong to no test.
nlohmann::ordered_json tests_json(const std::vector<std::filesystem::path>& game_files,
                                  const fishtest::MetadataByFile& metadata);

}  // namespace wdl::scan
