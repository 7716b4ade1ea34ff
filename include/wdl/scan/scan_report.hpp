#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "wdl/scan/chunked_reader.hpp"
#include "wdl/scan/scanner.hpp"

namespace wdl::scan {

// "Files: 3 read, 0 damaged, 0 unreadable; 0.6 MB of PGN text." (newline-terminated) and its
// JSON twin {"read", "damaged", "unreadable", "textBytes"}: the files line of every reading.
std::string format_files_line(const ReadSummary& files);
nlohmann::ordered_json files_json(const ReadSummary& files);

// The closing summary: files, games read/accepted/skipped by reason, positions, speed.
std::string format_scan_summary(const ScanResult& result, double seconds);

// The summary's JSON twin: {"files": {...}, "games": {"read", "accepted", "skipped": {reason:
// count}}, "positions", "distinctKeys", "seconds", "warnings"}.
nlohmann::ordered_json scan_summary_json(const ScanResult& result, double seconds);

// The progress line of a reading: "Scanning: 3/40 files, 1200 games, 85 MB/s, ETA 0:12".
std::string describe_progress(const ReadProgress& progress, std::uint64_t total_files,
                              std::uint64_t total_compressed_bytes, double seconds);

}  // namespace wdl::scan
