#pragma once

#include <filesystem>
#include <string>

#include "wdl/scan/count_map.hpp"

namespace wdl::scan {

// The counts as the original's JSON object: keys "('W', 12, 62, 35)" in sorted order,
// two-space indent; "{}" when empty.
std::string counts_to_json(const CountMap& counts);

// Writes counts_to_json atomically; throws std::runtime_error naming the file on failure.
void write_counts_json(const CountMap& counts, const std::filesystem::path& path);

}  // namespace wdl::scan
