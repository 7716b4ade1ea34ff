#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "keeping_sink.hpp"
#include "test_data.hpp"
#include "wdl/training/bin.hpp"

using namespace wdl;

namespace {

// A sink keeping each position as "placement side score ply result".
training::test::KeepingSink<std::string> placement_sink() {
    return training::test::KeepingSink<std::string>([](const training::TrainingPosition& position) {
        std::string fen = position.board.fen();
        return fen.substr(0, fen.find(' ', fen.find(' ') + 1)) + " " +
               std::to_string(position.score) + " " + std::to_string(position.ply) + " " +
               std::to_string(position.result);
    });
}

// The same of .plain text: "placement side score ply result" per record.
std::vector<std::string> plain_positions(const std::string& text, std::size_t count) {
    std::vector<std::string> positions;
    std::istringstream lines(text);
    std::string line, placement, score, ply;
    while (positions.size() < count && std::getline(lines, line)) {
        if (line.starts_with("fen ")) {
            auto fen = line.substr(4);
            placement = fen.substr(0, fen.find(' ', fen.find(' ') + 1));
        } else if (line.starts_with("score ")) {
            score = line.substr(6);
        } else if (line.starts_with("ply ")) {
            ply = line.substr(4);
        } else if (line.starts_with("result ")) {
            positions.push_back(placement + " " + score + " " + ply + " " + line.substr(7));
        }
    }
    return positions;
}

}  // namespace

// Stockfish's converter wrote the first 3,000 positions of the random games as .bin
// (tests/data/training/README.md); each comes out as its .plain has it.
TEST_CASE("bin: random games decode as Stockfish wrote them", "[training]") {
    auto expected = plain_positions(
        testing::read_decompressed(testing::test_data_path("training/random_games.plain.gz")),
        3000);
    auto sink = placement_sink();
    auto bytes =
        testing::read_decompressed(testing::test_data_path("training/random_games_3000.bin.gz"));
    REQUIRE(bytes.size() == 3000 * training::kBinRecordBytes);
    auto reading = training::read_bin(bytes, 0, sink);
    CHECK(reading.problems.listed().empty());
    REQUIRE(sink.kept.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("position " << i);
        REQUIRE(sink.kept[i] == expected[i]);
    }
    // One unit per game: a game starts at ply 0.
    auto starts = std::count_if(expected.begin(), expected.end(), [](const std::string& position) {
        return position.ends_with(" 0 1") || position.ends_with(" 0 0") ||
               position.ends_with(" 0 -1");
    });
    CHECK(std::int64_t(sink.units.size()) == starts);
}

TEST_CASE("bin: a record of no position breaks its game, a record cut short is named",
          "[training]") {
    auto bytes = testing::read_decompressed(testing::test_data_path("training/games.bin.gz"));
    std::string damaged = bytes.substr(0, 10 * training::kBinRecordBytes);
    damaged[5 * training::kBinRecordBytes + 38] = 7;  // a result that is none
    auto sink = placement_sink();
    auto reading = training::read_bin(damaged, 0, sink);
    // The game's records 0-4 go with the broken sixth; 6-9 continue each other, a unit of
    // their own.
    CHECK(sink.kept.size() == 4);
    CHECK(sink.dropped == 1);
    REQUIRE(reading.problems.listed().size() == 1);
    CHECK(reading.problems.listed()[0].description ==
          "at byte 200, a result other than 1, 0 or -1 (and the 5 records of its game before "
          "it)");

    std::string cut = bytes.substr(0, 10 * training::kBinRecordBytes + 25);
    auto cut_sink = placement_sink();
    reading = training::read_bin(cut, 1000, cut_sink);
    CHECK(cut_sink.kept.empty());  // the game the cut record belongs to
    REQUIRE(reading.problems.listed().size() == 1);
    CHECK(reading.problems.listed()[0].description ==
          "at byte 1400, a record cut short (25 of 40 bytes) (and the 10 records of its game "
          "before it)");
    CHECK(training::bin_layout().last_cut(cut, 0) == 400);
    CHECK(training::bin_layout().last_cut(cut.substr(0, 39), 0) == std::string::npos);
}
