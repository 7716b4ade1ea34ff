#pragma once

#include <filesystem>
#include <string>

#include "wdl/scan/count_map.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::scan {

// The counts as the original's JSON object: keys "('W', 12, 62, 35)" in sorted order,
// two-space indent; "{}" when empty.
std::string counts_to_json(const CountMap& counts);

// Writes counts_to_json into the output and commits it; throws std::runtime_error naming the
// file on failure. The output is opened by the caller, so that a bad path fails before a scan.
void write_counts_json(const CountMap& counts, util::AtomicFile& output);

}  // namespace wdl::scan
