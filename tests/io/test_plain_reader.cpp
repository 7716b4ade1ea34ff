#include <catch2/catch.hpp>

#include "io_test_support.hpp"
#include "wdl/io/block_reader.hpp"

using namespace wdl::io;
using namespace wdl::io::test;

TEST_CASE("compression is chosen by the last extension", "[io]") {
    CHECK(compression_for("a/b.pgn.gz") == Compression::Gzip);
    CHECK(compression_for("b.pgn.zst") == Compression::Zstd);
    CHECK(compression_for("b.pgn") == Compression::None);
    CHECK(compression_for("b.gz.pgn") == Compression::None);
    CHECK(compression_for("gz") == Compression::None);
}

TEST_CASE("a plain file is read exactly, in blocks of the configured size", "[io]") {
    auto directory = fresh_directory("plain");
    auto text = pgn_like_text(3'000'000, 1);
    write_text_file(directory / "games.pgn", text);

    auto result = read_whole(directory / "games.pgn");
    CHECK(result.data == text);
    CHECK(result.damage.empty());
    CHECK(result.compressed_bytes == text.size());

    auto small_blocks = read_whole(directory / "games.pgn", tiny_limits());
    CHECK(small_blocks.data == text);
    CHECK(small_blocks.largest_block == tiny_limits().block_bytes);
}

TEST_CASE("an empty plain file has no data and no damage", "[io]") {
    auto directory = fresh_directory("plain_empty");
    write_text_file(directory / "empty.pgn", "");
    auto result = read_whole(directory / "empty.pgn");
    CHECK(result.data.empty());
    CHECK(result.damage.empty());
}

TEST_CASE("read_block appends to what the caller already holds", "[io]") {
    auto directory = fresh_directory("plain_append");
    write_text_file(directory / "games.pgn", "1. e4 e5");
    auto reader = BlockReader::open(directory / "games.pgn");
    std::string out = "kept ";
    CHECK(reader->read_block(out) == 8);
    CHECK(out == "kept 1. e4 e5");
    CHECK(reader->read_block(out) == 0);
    CHECK(reader->read_block(out) == 0);
}
