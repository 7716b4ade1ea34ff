#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>

#include "wdl/counts/count_file.hpp"

// Version 2 of grouped count files, the compact one (docs/formats.md): a header line of JSON,
// then the counts key by key in checksummed binary blocks. A scan with --groups 64 writes it
// at the speed of the plain file and about as large: the JSON of version 1 was 8 times larger
// and took as long to write as a fifth of the scan.
namespace wdl::counts::compact {

// How every version-2 file begins: what tells it from JSON count files.
inline constexpr std::string_view kMagic = R"({"format": "wdlfit-grouped-counts", "version": 2, )";

// Whether the bytes begin as a version-2 file does.
inline bool is_compact(std::string_view bytes) { return bytes.starts_with(kMagic); }

// Calls write(bytes) with the file's bytes piece by piece, the pieces encoded on up to
// `threads` threads. Throws std::invalid_argument when labels do not name every group.
void write(const GroupedCounts& counts, const GroupLabels* labels, int threads,
           const std::function<void(std::string_view)>& write);

// The counts of the file into the target's add_to_group; a large file in two pieces at once.
// Throws wdl::Error naming the file (and the block) for anything that is not a whole,
// undamaged version-2 file.
CountFileReport read(const std::filesystem::path& path, std::string_view bytes,
                     CountTarget& target);

}  // namespace wdl::counts::compact
