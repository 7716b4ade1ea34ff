#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "wdl/io/block_reader.hpp"

namespace wdl::io::test {

using testing::fresh_directory;
using testing::write_text_file;

// PGN-like text of about `bytes` bytes: varied enough to compress like real games.
std::string pgn_like_text(std::size_t bytes, std::uint32_t seed);

std::string gzip_member(const std::string& text);
std::string zstd_frame(const std::string& text);

// Limits small enough that window refills, output growth and the zlib streaming fallback
// happen with inputs of a few hundred kilobytes: members of up to 64 KB decompressed are
// decoded whole, larger ones streamed.
ReaderLimits tiny_limits();

struct ReadResult {
    std::string data;
    std::string damage;
    std::uint64_t compressed_bytes = 0;
    std::size_t largest_block = 0;
};

ReadResult read_whole(const std::filesystem::path& path, const ReaderLimits& limits = {});

// Input made of several separately compressed parts, with the offset where each part ends.
struct Concatenation {
    std::vector<std::string> texts;
    std::string compressed;
    std::vector<std::size_t> part_ends;

    std::string text_of_first(std::size_t parts) const;
    std::string all_text() const { return text_of_first(texts.size()); }
};

Concatenation concatenate_gzip_members(std::size_t members, std::size_t bytes_each);
Concatenation concatenate_zstd_frames(std::size_t frames, std::size_t bytes_each);

bool is_prefix(const std::string& prefix, const std::string& text);

}  // namespace wdl::io::test
