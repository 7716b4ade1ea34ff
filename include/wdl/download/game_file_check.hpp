#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace wdl::download {

// Why `file` is not a complete gzip file, or nothing if it is. Complete means one or more
// gzip members (fishtest serves run_pgns files as several concatenated members), each
// inflating to its end with matching CRC and length, and nothing after the last one: what the
// scanner's gzip reader (io::BlockReader) finds no damage in. Bounded memory, one pass.
std::optional<std::string> gzip_file_defect(const std::filesystem::path& file);

}  // namespace wdl::download
