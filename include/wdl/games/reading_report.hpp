#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "wdl/games/chunked_reader.hpp"

// What every program that reads games prints about the reading itself: the files line, its
// JSON twin and the progress line.
namespace wdl::games {

// "Files: 3 read, 0 damaged, 0 unreadable; 0.6 MB of PGN text." (newline-terminated) and its
// JSON twin {"read", "damaged", "unreadable", "textBytes"}.
std::string format_files_line(const ReadSummary& files, std::string_view content = "PGN text");
nlohmann::ordered_json files_json(const ReadSummary& files);

// The progress line of a reading: "Scanning: 3/40 files, 1200 games, 85 MB/s, ETA 0:12".
std::string describe_progress(const ReadProgress& progress, std::uint64_t total_files,
                              std::uint64_t total_compressed_bytes, double seconds);

}  // namespace wdl::games
