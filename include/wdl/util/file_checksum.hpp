#pragma once

#include <cstdint>
#include <filesystem>

// A checksum of a file's bytes, for a report to name the exact input it was made from.
namespace wdl::util {

// The CRC-32 of the file's bytes (zlib's crc32, the checksum of gzip and PNG), which any CRC-32
// tool recomputes. Throws wdl::Error naming the file when it cannot be read.
std::uint32_t file_crc32(const std::filesystem::path& file);

}  // namespace wdl::util
