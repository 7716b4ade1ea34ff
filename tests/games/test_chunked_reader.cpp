#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/util/error.hpp"

using namespace wdl;
namespace fs = std::filesystem;

namespace {

// Keeps each chunk it is given; a game whose moves say "Qh9" is reported broken, a chunk with
// "THROW" throws.
class KeepingConsumer : public games::ChunkConsumer {
  public:
    struct Kept {
        std::size_t file_index;
        std::uint64_t offset;
        std::string text;
    };
    std::vector<Kept> chunks;

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        if (chunk.text.find("THROW") != std::string_view::npos) throw Error("a consumer failed");
        chunks.push_back({chunk.file_index, chunk.offset, std::string(chunk.text)});
        games::ChunkReport report;
        std::size_t at = 0;
        while ((at = chunk.text.find("[White ", at)) != std::string_view::npos) {
            std::size_t end = chunk.text.find("[White ", at + 1);
            if (chunk.text.substr(at, end - at).find("Qh9") != std::string_view::npos)
                report.problems.add(report.games, "cannot play move \"Qh9\"");
            ++report.games;
            at += 1;
        }
        return report;
    }
};

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

std::string game(int number, bool broken = false) {
    return "[White \"A" + std::to_string(number) + "\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n" +
           (broken ? "1. Qh9 1-0\n\n" : "1. e4 {+0.30/10 0.1s} e5 2. Nf3 1-0\n\n");
}

std::string games_text(int count, int broken_every = 0) {
    std::string text;
    for (int i = 0; i < count; ++i) text += game(i, broken_every > 0 && i % broken_every == 0);
    return text;
}

void write_gzip(const fs::path& path, const std::string& text) {
    gzFile file = gzopen(path.c_str(), "wb");
    REQUIRE(file != nullptr);
    REQUIRE(gzwrite(file, text.data(), unsigned(text.size())) == int(text.size()));
    REQUIRE(gzclose(file) == Z_OK);
}

struct Reading {
    games::ReadSummary summary;
    std::vector<KeepingConsumer::Kept> chunks;  // of all threads, in (file, offset) order
};

Reading read(const std::vector<fs::path>& files, int threads, std::size_t chunk_bytes) {
    std::vector<KeepingConsumer> consumers(static_cast<std::size_t>(threads));
    std::vector<games::ChunkConsumer*> pointers;
    for (auto& consumer : consumers) pointers.push_back(&consumer);
    games::ReadSettings settings;
    settings.chunk_bytes = chunk_bytes;
    Reading reading{games::read_in_chunks(files, pointers, settings), {}};
    for (auto& consumer : consumers)
        reading.chunks.insert(reading.chunks.end(), consumer.chunks.begin(), consumer.chunks.end());
    std::sort(reading.chunks.begin(), reading.chunks.end(), [](const auto& a, const auto& b) {
        return std::pair(a.file_index, a.offset) < std::pair(b.file_index, b.offset);
    });
    return reading;
}

}  // namespace

TEST_CASE("a file is cut into chunks of whole games that together are the file",
          "[games][chunked_reader][threaded]") {
    auto folder = testing::fresh_directory("chunked_reader_whole");
    std::string text = games_text(150'000);  // 14 MB: several of the reader's 4 MiB blocks
    write_gzip(folder / "games.pgn.gz", text);
    for (int threads : {1, 2}) {
        INFO(threads << " threads");
        auto reading = read({folder / "games.pgn.gz"}, threads, kChunkBytes);
        CHECK(reading.chunks.size() >= 4);
        std::string joined;
        for (const auto& chunk : reading.chunks) {
            CHECK(chunk.offset == joined.size());
            CHECK(chunk.text.starts_with("[White "));
            joined += chunk.text;
        }
        CHECK(joined == text);
        CHECK(reading.summary.files_read == 1);
        CHECK(reading.summary.text_bytes == text.size());
        CHECK(reading.summary.warnings.empty());
    }
}

TEST_CASE("broken games are numbered within their file, whatever chunk held them",
          "[games][chunked_reader][threaded]") {
    auto folder = testing::fresh_directory("chunked_reader_numbers");
    // Games 1, 50001, 100001 of a file of several chunks.
    testing::write_text_file(folder / "a.pgn", games_text(150'000, 50'000));
    testing::write_text_file(folder / "b.pgn", games_text(30, 0) + game(30, true));
    for (int threads : {1, 2}) {
        INFO(threads << " threads");
        auto reading = read({folder / "a.pgn", folder / "b.pgn"}, threads, kChunkBytes);
        CHECK(reading.chunks.size() >= 4);
        auto a = (folder / "a.pgn").string(), b = (folder / "b.pgn").string();
        std::vector<std::string> expected = {
            "Warning: " + a + ", game 1: cannot play move \"Qh9\"; game skipped",
            "Warning: " + a + ", game 50001: cannot play move \"Qh9\"; game skipped",
            "Warning: " + a + ", game 100001: cannot play move \"Qh9\"; game skipped",
            "Warning: " + b + ", game 31: cannot play move \"Qh9\"; game skipped",
        };
        CHECK(reading.summary.warnings == expected);
    }
}

TEST_CASE("a file's broken games beyond the listed ones are counted in one line",
          "[games][chunked_reader]") {
    auto folder = testing::fresh_directory("chunked_reader_many_broken");
    testing::write_text_file(folder / "bad.pgn", games_text(100, 1));
    auto reading = read({folder / "bad.pgn"}, 2, kChunkBytes);
    REQUIRE(reading.summary.warnings.size() == games::kListedProblems + 1);
    CHECK(reading.summary.warnings.back() == "Warning: " + (folder / "bad.pgn").string() + ": " +
                                                 std::to_string(100 - games::kListedProblems) +
                                                 " more games skipped as broken (not listed)");
}

TEST_CASE("an unreadable file and a truncated gzip are reported, the rest is read",
          "[games][chunked_reader]") {
    auto folder = testing::fresh_directory("chunked_reader_damage");
    std::string text = games_text(200);
    write_gzip(folder / "whole.pgn.gz", text);
    std::string gz = testing::read_text_file(folder / "whole.pgn.gz");
    testing::write_text_file(folder / "cut.pgn.gz", gz.substr(0, gz.size() / 2));
    auto reading = read({folder / "cut.pgn.gz", folder / "missing.pgn", folder / "whole.pgn.gz"}, 2,
                        kChunkBytes);
    CHECK(reading.summary.files_read == 2);
    CHECK(reading.summary.files_damaged == 1);
    CHECK(reading.summary.files_unreadable == 1);
    REQUIRE(reading.summary.warnings.size() == 2);
    CHECK(testing::has_line_with(reading.summary.warnings[0], "cut.pgn.gz",
                                 "its complete games were counted"));
    CHECK(testing::has_line_with(reading.summary.warnings[1], "skipping", "missing.pgn"));
    // The damaged file's text up to the damage, and the whole other file.
    std::string cut_text, whole_text;
    for (const auto& chunk : reading.chunks)
        (chunk.file_index == 0 ? cut_text : whole_text) += chunk.text;
    CHECK(whole_text == text);
    CHECK(!cut_text.empty());
    CHECK(text.starts_with(cut_text));
}

TEST_CASE("a consumer's exception stops the reading with a message naming the file",
          "[games][chunked_reader][threaded]") {
    auto folder = testing::fresh_directory("chunked_reader_throw");
    testing::write_text_file(folder / "fine.pgn", games_text(100));
    testing::write_text_file(folder / "throws.pgn", games_text(50) + "THROW\n" + games_text(50));
    for (int threads : {1, 2}) {
        INFO(threads << " threads");
        CHECK_THROWS_WITH(read({folder / "fine.pgn", folder / "throws.pgn"}, threads, kChunkBytes),
                          Catch::Contains("a consumer failed") && Catch::Contains("throws.pgn"));
    }
}

TEST_CASE("text without any tag section is still cut, so memory stays bounded",
          "[games][chunked_reader]") {
    auto folder = testing::fresh_directory("chunked_reader_tagless");
    std::string text;
    while (text.size() < 20'000'000) text += "1. e4 e5 2. Nf3 Nc6 1-0\n\n";
    testing::write_text_file(folder / "tagless.pgn", text);
    auto reading = read({folder / "tagless.pgn"}, 1, kChunkBytes);
    CHECK(reading.chunks.size() >= 3);
    std::string joined;
    for (const auto& chunk : reading.chunks) {
        // Cut once the buffer holds four chunks' worth; a block read may overshoot by 4 MiB.
        CHECK(chunk.text.size() <= 4 * kChunkBytes + (std::size_t{4} << 20));
        joined += chunk.text;
    }
    CHECK(joined == text);
}
