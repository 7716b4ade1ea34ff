#include "io_test_support.hpp"

#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace wdl::io::test {

std::string pgn_like_text(std::size_t bytes, std::uint32_t seed) {
    static const char* const kMoves[] = {"e4",   "d4",   "Nf3", "c4", "Nc6", "Bb5", "O-O", "Qxd8+",
                                         "exd5", "Rfe1", "h6",  "g3", "Bg2", "a6",  "Kh1", "f5"};
    std::string text;
    std::uint32_t state = seed * 2654435761u + 1;
    auto next = [&state] { return state = state * 1664525u + 1013904223u; };
    for (int move = 1; text.size() < bytes; ++move) {
        if (move % 80 == 1) text += "\n[Event \"test\"]\n[Result \"1/2-1/2\"]\n\n";
        text += std::to_string(move) + ". " + kMoves[next() >> 28] + " {" +
                std::to_string(static_cast<int>(next() >> 22) - 512) + "/" +
                std::to_string(next() >> 27) + " 0." + std::to_string(next() >> 20) + "s} ";
    }
    text.resize(bytes);
    return text;
}

std::string gzip_member(const std::string& text) {
    z_stream stream{};
    if (deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    std::string compressed(deflateBound(&stream, text.size()), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
    stream.avail_out = static_cast<uInt>(compressed.size());
    int status = deflate(&stream, Z_FINISH);
    compressed.resize(stream.total_out);
    deflateEnd(&stream);
    if (status != Z_STREAM_END) throw std::runtime_error("deflate failed");
    return compressed;
}

std::string zstd_frame(const std::string& text) {
    std::string compressed(ZSTD_compressBound(text.size()), '\0');
    std::size_t size =
        ZSTD_compress(compressed.data(), compressed.size(), text.data(), text.size(), 3);
    if (ZSTD_isError(size)) throw std::runtime_error("ZSTD_compress failed");
    compressed.resize(size);
    return compressed;
}

ReaderLimits tiny_limits() {
    ReaderLimits limits;
    limits.block_bytes = 4096;
    limits.input_window_bytes = 64 << 10;
    limits.max_whole_member_bytes = 64 << 10;
    return limits;
}

ReadResult read_whole(const fs::path& path, const ReaderLimits& limits) {
    auto reader = BlockReader::open(path, limits);
    ReadResult result;
    while (std::size_t count = reader->read_block(result.data))
        result.largest_block = std::max(result.largest_block, count);
    result.damage = reader->damage();
    result.compressed_bytes = reader->compressed_bytes_read();
    return result;
}

std::string Concatenation::text_of_first(std::size_t parts) const {
    std::string text;
    for (std::size_t i = 0; i < parts; ++i) text += texts[i];
    return text;
}

namespace {

template <typename Compress>
Concatenation concatenate(std::size_t parts, std::size_t bytes_each, Compress compress) {
    Concatenation result;
    for (std::size_t i = 0; i < parts; ++i) {
        // Varying sizes, so that parts do not line up with windows or blocks.
        result.texts.push_back(pgn_like_text(bytes_each + 997 * i, static_cast<std::uint32_t>(i)));
        result.compressed += compress(result.texts.back());
        result.part_ends.push_back(result.compressed.size());
    }
    return result;
}

}  // namespace

Concatenation concatenate_gzip_members(std::size_t members, std::size_t bytes_each) {
    return concatenate(members, bytes_each, gzip_member);
}

Concatenation concatenate_zstd_frames(std::size_t frames, std::size_t bytes_each) {
    return concatenate(frames, bytes_each, zstd_frame);
}

bool is_prefix(const std::string& prefix, const std::string& text) {
    return prefix.size() <= text.size() && text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace wdl::io::test
