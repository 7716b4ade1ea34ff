#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "wdl/scan/scanner.hpp"

namespace wdl::scan {

// The closing summary: files, games read/accepted/skipped by reason, positions, speed.
std::string format_scan_summary(const ScanResult& result, double seconds);

// The summary's JSON twin: {"files": {...}, "games": {"read", "accepted", "skipped": {reason:
// count}}, "positions", "distinctKeys", "seconds", "warnings"}.
nlohmann::ordered_json scan_summary_json(const ScanResult& result, double seconds);

}  // namespace wdl::scan
