#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace wdl::io {

enum class Compression { None, Gzip, Zstd };

// Chosen by the last extension: ".gz", ".zst", anything else is plain.
Compression compression_for(const std::filesystem::path& path);

// Memory bounds of a reader. The defaults suit fishtest downloads; tests shrink them to reach
// the rarely used paths (streaming fallback, window refills) with small inputs.
struct ReaderLimits {
    // Decompressed bytes appended by one read_block call (fewer only at the end of the data).
    std::size_t block_bytes = std::size_t{4} << 20;
    // Compressed bytes held in memory at once.
    std::size_t input_window_bytes = std::size_t{32} << 20;
    // A gzip member is decoded in one piece (fast, libdeflate) only if it fits in this many
    // decompressed bytes and its compressed bytes fit in the window; larger members are
    // streamed through zlib. Fishtest's members hold one upload of games (under 1 MiB); a
    // file gzipped whole streams, so that memory does not grow with it.
    std::size_t max_whole_member_bytes = std::size_t{16} << 20;
};

// Streams the decompressed bytes of one file in large blocks.
class BlockReader {
  public:
    // Throws wdl::Error with a one-line message naming the file if it cannot be
    // opened (missing, unreadable, a directory).
    static std::unique_ptr<BlockReader> open(const std::filesystem::path& path,
                                             const ReaderLimits& limits = {});
    // The same with the compression given, for a file whose name does not tell it (e.g. a
    // download under its temporary name).
    static std::unique_ptr<BlockReader> open(const std::filesystem::path& path,
                                             Compression compression,
                                             const ReaderLimits& limits = {});
    virtual ~BlockReader() = default;

    // Appends the next decompressed bytes to `out` and returns their count; 0 means the end
    // of the data. Never throws for bad data: a truncated or corrupt compressed stream ends
    // the data early, keeping every byte decoded before the damage.
    virtual std::size_t read_block(std::string& out) = 0;

    // After read_block returned 0: empty if the file was complete and valid, else a one-line
    // description of the damage (e.g. "truncated gzip member 3 (starts at byte 123456)").
    virtual const std::string& damage() const = 0;

    // Compressed bytes consumed by the decoder so far (for progress and throughput).
    virtual std::uint64_t compressed_bytes_read() const = 0;
};

}  // namespace wdl::io
