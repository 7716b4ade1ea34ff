#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "io_test_support.hpp"
#include "test_data.hpp"
#include "wdl/io/block_reader.hpp"

namespace fs = std::filesystem;
using namespace wdl::io;
using namespace wdl::io::test;

namespace {

// Both the default limits (libdeflate decodes whole members) and tiny ones (window refills
// and zlib streaming) must give the same bytes.
std::vector<std::pair<const char*, ReaderLimits>> all_limit_sets() {
    return {{"default limits", ReaderLimits{}}, {"tiny limits", tiny_limits()}};
}

std::string output_of_command(const std::string& command) {
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run " + command);
    std::string output;
    char buffer[1 << 16];
    while (std::size_t count = std::fread(buffer, 1, sizeof buffer, pipe))
        output.append(buffer, count);
    ::pclose(pipe);
    return output;
}

// The parts wholly before `cut` must come out complete, and nothing beyond the original.
void check_cut(const Concatenation& input, std::size_t cut, const ReadResult& result) {
    std::size_t whole_parts = 0;
    while (whole_parts < input.part_ends.size() && input.part_ends[whole_parts] <= cut)
        ++whole_parts;
    INFO("cut at byte " << cut << ", " << whole_parts << " whole parts");
    CHECK(is_prefix(input.text_of_first(whole_parts), result.data));
    CHECK(is_prefix(result.data, input.all_text()));
    bool at_boundary = cut > 0 && whole_parts > 0 && input.part_ends[whole_parts - 1] == cut;
    CHECK(result.damage.empty() == at_boundary);
}

}  // namespace

TEST_CASE("a single gzip member is read exactly", "[io][gzip]") {
    auto directory = fresh_directory("gzip_single");
    auto text = pgn_like_text(2'000'000, 7);
    auto compressed = gzip_member(text);
    write_text_file(directory / "games.pgn.gz", compressed);
    for (const auto& [name, limits] : all_limit_sets()) {
        INFO(name);
        auto result = read_whole(directory / "games.pgn.gz", limits);
        CHECK(result.data == text);
        CHECK(result.damage.empty());
        CHECK(result.compressed_bytes == compressed.size());
        CHECK(result.largest_block <= limits.block_bytes);
    }
}

TEST_CASE("every member of a multi-member gzip file is read", "[io][gzip]") {
    auto directory = fresh_directory("gzip_multi");
    auto input = concatenate_gzip_members(50, 40'000);
    write_text_file(directory / "games.pgn.gz", input.compressed);
    for (const auto& [name, limits] : all_limit_sets()) {
        INFO(name);
        auto result = read_whole(directory / "games.pgn.gz", limits);
        CHECK(result.data == input.all_text());
        CHECK(result.damage.empty());
        CHECK(result.compressed_bytes == input.compressed.size());
    }
}

TEST_CASE("a member much larger than the first output guess is read exactly", "[io][gzip]") {
    auto directory = fresh_directory("gzip_large_member");
    // 20 MB of repetitive text compresses ~1000x, far beyond the guessed ratio.
    std::string text;
    while (text.size() < 20'000'000) text += "1. e4 {+0.31/20 0.5s} e5 {-0.28/19 0.4s} ";
    auto small = pgn_like_text(100'000, 3);
    write_text_file(directory / "games.pgn.gz", gzip_member(small) + gzip_member(text));

    ReaderLimits streamed_large_members;
    streamed_large_members.max_whole_member_bytes = 1 << 20;
    for (const auto& limits : {ReaderLimits{}, streamed_large_members, tiny_limits()}) {
        INFO("whole-member limit " << limits.max_whole_member_bytes);
        auto result = read_whole(directory / "games.pgn.gz", limits);
        CHECK(result.data.size() == small.size() + text.size());
        CHECK(result.data == small + text);
        CHECK(result.damage.empty());
    }
}

TEST_CASE("a 0-byte gzip file has no data and says it is empty", "[io][gzip]") {
    auto directory = fresh_directory("gzip_empty");
    write_text_file(directory / "empty.pgn.gz", "");
    auto result = read_whole(directory / "empty.pgn.gz");
    CHECK(result.data.empty());
    CHECK(result.damage == "empty gzip file");
}

TEST_CASE("a .gz file that is not gzip is reported", "[io][gzip]") {
    auto directory = fresh_directory("gzip_not");
    write_text_file(directory / "plain.pgn.gz", "[Event \"x\"]\n1. e4 e5\n");
    auto result = read_whole(directory / "plain.pgn.gz");
    CHECK(result.data.empty());
    CHECK(result.damage == "not a gzip file");
}

TEST_CASE("a truncated gzip file keeps whole members and the damaged member's prefix",
          "[io][gzip]") {
    auto directory = fresh_directory("gzip_truncated");
    auto input = concatenate_gzip_members(10, 60'000);
    auto path = directory / "games.pgn.gz";
    const auto& ends = input.part_ends;
    std::vector<std::size_t> cuts = {
        1,           10,          ends[0] - 4,   ends[0],
        ends[0] + 1, ends[0] + 9, ends[3] + 500, (ends[4] + ends[5]) / 2,
        ends[8] + 2, ends[9] - 1};
    for (const auto& [name, limits] : all_limit_sets()) {
        for (std::size_t cut : cuts) {
            INFO(name);
            write_text_file(path, input.compressed.substr(0, cut));
            check_cut(input, cut, read_whole(path, limits));
        }
    }
    write_text_file(path, input.compressed.substr(0, (ends[4] + ends[5]) / 2));
    auto result = read_whole(path);
    CHECK_THAT(result.damage, Catch::StartsWith("truncated gzip member 6 (starts at byte " +
                                                std::to_string(ends[4]) + ")"));
    CHECK(result.data.size() > input.text_of_first(5).size());
}

TEST_CASE("a gzip file cut at every position never yields wrong bytes", "[io][gzip]") {
    auto directory = fresh_directory("gzip_every_cut");
    auto input = concatenate_gzip_members(3, 2'000);
    auto path = directory / "games.pgn.gz";
    for (std::size_t cut = 0; cut <= input.compressed.size(); ++cut) {
        write_text_file(path, input.compressed.substr(0, cut));
        auto result = read_whole(path);
        if (cut == 0)
            CHECK(result.damage == "empty gzip file");
        else
            check_cut(input, cut, result);
    }
}

TEST_CASE("corrupt bytes in a middle member end the data after the members before it",
          "[io][gzip]") {
    auto directory = fresh_directory("gzip_corrupt");
    auto input = concatenate_gzip_members(10, 50'000);
    auto path = directory / "games.pgn.gz";
    auto damaged = input.compressed;
    std::size_t middle = (input.part_ends[4] + input.part_ends[5]) / 2;
    for (std::size_t i = 0; i < 64; ++i) damaged[middle + i] = static_cast<char>(0xa5 ^ i);
    write_text_file(path, damaged);
    for (const auto& [name, limits] : all_limit_sets()) {
        INFO(name);
        auto result = read_whole(path, limits);
        CHECK(is_prefix(input.text_of_first(5), result.data));
        CHECK(result.data.size() < input.all_text().size());
        CHECK_THAT(result.damage, Catch::StartsWith("corrupt gzip member 6"));
    }
}

TEST_CASE("a member failing its checksum gives none of its text", "[io][gzip]") {
    auto directory = fresh_directory("gzip_checksum");
    auto input = concatenate_gzip_members(10, 50'000);
    auto path = directory / "games.pgn.gz";
    auto damaged = input.compressed;
    // The member's trailer is CRC32 then size: a wrong CRC leaves the deflate data decodable.
    damaged[input.part_ends[5] - 8] ^= 0x01;
    write_text_file(path, damaged);
    for (const auto& [name, limits] : all_limit_sets()) {
        INFO(name);
        auto result = read_whole(path, limits);
        CHECK(result.data == input.text_of_first(5));
        CHECK_THAT(result.damage, Catch::StartsWith("corrupt gzip member 6"));
    }
}

TEST_CASE("bytes after the last gzip member are reported and all data is kept", "[io][gzip]") {
    auto directory = fresh_directory("gzip_trailing");
    auto input = concatenate_gzip_members(4, 30'000);
    auto path = directory / "games.pgn.gz";
    for (const auto& [name, limits] : all_limit_sets()) {
        INFO(name);
        write_text_file(path, input.compressed + std::string(1024, '\0'));
        auto padded = read_whole(path, limits);
        CHECK(padded.data == input.all_text());
        CHECK_THAT(padded.damage, Catch::StartsWith("zero padding after gzip member 4"));

        write_text_file(path, input.compressed + "garbage\n");
        auto garbage = read_whole(path, limits);
        CHECK(garbage.data == input.all_text());
        CHECK_THAT(garbage.damage, Catch::StartsWith("unexpected bytes after gzip member 4"));
    }
}

TEST_CASE("random bytes after a gzip header never crash the reader", "[io][gzip]") {
    auto directory = fresh_directory("gzip_random");
    auto path = directory / "random.pgn.gz";
    auto valid = gzip_member(pgn_like_text(5'000, 9));
    std::mt19937 random(12345);
    for (int round = 0; round < 200; ++round) {
        std::string bytes = round % 2 ? valid.substr(0, 10) : valid;
        std::size_t length = random() % 3000;
        std::size_t start = round % 2 ? bytes.size() : random() % bytes.size();
        bytes.resize(std::max(bytes.size(), start + length));
        for (std::size_t i = start; i < start + length; ++i) bytes[i] = static_cast<char>(random());
        write_text_file(path, bytes);
        auto result = read_whole(path, round % 4 < 2 ? ReaderLimits{} : tiny_limits());
        CHECK(result.compressed_bytes <= bytes.size());
    }
}

TEST_CASE("the corpus gzip files decode exactly as zcat decodes them", "[io][gzip][corpus]") {
    fs::path corpus = wdl::testing::corpus_path();
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
        if (entry.path().extension() != ".gz") continue;
        INFO(entry.path());
        auto expected = output_of_command("zcat '" + entry.path().string() + "'");
        auto result = read_whole(entry.path());
        CHECK(result.damage.empty());
        CHECK(result.data.size() == expected.size());
        CHECK(result.data == expected);
        ++files;
    }
    CHECK(files >= 9);
}

TEST_CASE("a member longer than the input window is streamed, not held until its end",
          "[io][gzip]") {
    auto directory = fresh_directory("gzip_member_beyond_window");
    auto text = pgn_like_text(4'000'000, 11);
    auto compressed = gzip_member(text);
    write_text_file(directory / "games.pgn.gz", compressed);
    ReaderLimits limits;
    limits.block_bytes = 64 << 10;
    limits.input_window_bytes = 64 << 10;
    limits.max_whole_member_bytes = 1 << 20;
    REQUIRE(compressed.size() > 4 * limits.input_window_bytes);
    auto reader = BlockReader::open(directory / "games.pgn.gz", limits);
    std::string data;
    REQUIRE(reader->read_block(data) > 0);
    // Output held until the CRC would come only after the whole member: at most the
    // whole-member limit is held.
    CHECK(reader->compressed_bytes_read() < compressed.size() / 2);
    while (reader->read_block(data) > 0) {
    }
    CHECK(data == text);
    CHECK(reader->damage().empty());
}
