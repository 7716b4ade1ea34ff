#include <catch2/catch.hpp>

#include "io_test_support.hpp"
#include "wdl/io/block_reader.hpp"

using namespace wdl::io;
using namespace wdl::io::test;

TEST_CASE("every frame of a zstd file is read exactly", "[io][zstd]") {
    auto directory = fresh_directory("zstd_frames");
    auto input = concatenate_zstd_frames(6, 700'000);
    write_text_file(directory / "games.pgn.zst", input.compressed);
    for (const auto& limits : {ReaderLimits{}, tiny_limits()}) {
        auto result = read_whole(directory / "games.pgn.zst", limits);
        CHECK(result.data == input.all_text());
        CHECK(result.damage.empty());
        CHECK(result.compressed_bytes == input.compressed.size());
        CHECK(result.largest_block <= limits.block_bytes);
    }
}

TEST_CASE("a 0-byte zstd file has no data and says it is empty", "[io][zstd]") {
    auto directory = fresh_directory("zstd_empty");
    write_text_file(directory / "empty.pgn.zst", "");
    auto result = read_whole(directory / "empty.pgn.zst");
    CHECK(result.data.empty());
    CHECK(result.damage == "empty zstd file");
}

TEST_CASE("a truncated zstd file keeps whole frames and a prefix of the damaged one",
          "[io][zstd]") {
    auto directory = fresh_directory("zstd_truncated");
    auto input = concatenate_zstd_frames(4, 300'000);
    auto path = directory / "games.pgn.zst";
    const auto& ends = input.part_ends;
    for (std::size_t cut : {std::size_t{3}, ends[0] - 1, ends[0], ends[1] + 7,
                            (ends[2] + ends[3]) / 2, ends[3] - 1}) {
        INFO("cut at byte " << cut);
        write_text_file(path, input.compressed.substr(0, cut));
        auto result = read_whole(path, tiny_limits());
        std::size_t whole_frames = 0;
        while (ends[whole_frames] <= cut) ++whole_frames;
        CHECK(is_prefix(input.text_of_first(whole_frames), result.data));
        CHECK(is_prefix(result.data, input.all_text()));
        bool at_boundary = whole_frames > 0 && ends[whole_frames - 1] == cut;
        CHECK(result.damage.empty() == at_boundary);
        if (!at_boundary) CHECK_THAT(result.damage, Catch::Contains("zstd frame"));
    }
}

TEST_CASE("garbage in a zstd file ends the data with a damage report", "[io][zstd]") {
    auto directory = fresh_directory("zstd_garbage");
    auto input = concatenate_zstd_frames(2, 100'000);
    auto path = directory / "games.pgn.zst";
    write_text_file(path, input.compressed + "garbage after the frames");
    auto trailing = read_whole(path);
    CHECK(trailing.data == input.all_text());
    CHECK_THAT(trailing.damage, Catch::StartsWith("corrupt zstd frame 3"));

    write_text_file(path, "not zstd at all");
    auto not_zstd = read_whole(path);
    CHECK(not_zstd.data.empty());
    CHECK_THAT(not_zstd.damage, Catch::StartsWith("corrupt zstd frame 1"));
}
