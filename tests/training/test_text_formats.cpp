#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "keeping_sink.hpp"
#include "wdl/training/bullet.hpp"
#include "wdl/training/plain.hpp"

using namespace wdl;

namespace {

struct Seen {
    std::string fen;
    int score, ply, result;
};

training::test::KeepingSink<Seen> keeping_sink() {
    return training::test::KeepingSink<Seen>([](const training::TrainingPosition& position) {
        return Seen{position.board.fen(), position.score, position.ply, position.result};
    });
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const std::string kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

std::string plain_record(const std::string& fen, int score, int ply, int result) {
    return "fen " + fen + "\nmove e2e4\nscore " + std::to_string(score) + "\nply " +
           std::to_string(ply) + "\nresult " + std::to_string(result) + "\ne\n";
}

}  // namespace

TEST_CASE("plain: games of records that continue each other, a broken record breaks its game",
          "[training]") {
    std::string first = plain_record(kStart, 25, 0, 1);
    std::string second = plain_record(kAfterE4, -20, 1, -1);
    std::string third = plain_record(kStart, 5, 0, 0);  // a new game
    std::string broken = "fen " + kAfterE4 + "\nscore 12\nply x\nresult 0\ne\n";
    std::string fourth = plain_record(kStart, 7, 0, 1);
    auto sink = keeping_sink();
    auto reading = training::read_plain(first + second + third + broken + fourth, 100, sink);
    // The first game whole, the second lost with its broken record, the third.
    REQUIRE(sink.kept.size() == 3);
    CHECK(sink.kept[1].fen == kAfterE4);
    CHECK(sink.kept[1].score == -20);
    CHECK(sink.kept[1].result == -1);
    CHECK(sink.kept[2].score == 7);
    CHECK(reading.records == 5);
    CHECK(sink.dropped == 1);
    REQUIRE(reading.problems.listed().size() == 1);
    CHECK(reading.problems.listed()[0].game_index == 3);
    CHECK(reading.problems.listed()[0].description ==
          "at byte " + std::to_string(100 + first.size() + second.size() + third.size()) +
              ", no valid ply line (and the record of its game before it)");
    std::uint64_t third_at = 100 + first.size() + second.size();
    CHECK(sink.units ==
          std::vector<std::uint64_t>{100, third_at, third_at + third.size() + broken.size()});
}

TEST_CASE("plain: a record cut short and an invalid FEN", "[training]") {
    auto sink = keeping_sink();
    auto reading = training::read_plain(
        plain_record("8/8/8/8/8/8/8/8 w - - 0 1", 0, 0, 0) + "fen " + kStart + "\nscore 3\n", 0,
        sink);
    CHECK(sink.kept.empty());
    REQUIRE(reading.problems.listed().size() == 2);
    CHECK_THAT(reading.problems.listed()[0].description, Catch::Contains("invalid FEN"));
    CHECK_THAT(reading.problems.listed()[1].description,
               Catch::Contains("without its closing \"e\" line"));
}

TEST_CASE("bullet: White's score and result turned to the mover, the ply from the FEN",
          "[training]") {
    auto sink = keeping_sink();
    std::string text = kStart + " | 31 | 1.0\n\n" + kAfterE4 + " | 40 | 0.0\r\n" +
                       "8/8/8/8 | x | 0.5\n" + kStart + " | 3 | 0.7\n";
    auto reading = training::read_bullet(text, 0, sink);
    REQUIRE(sink.kept.size() == 2);
    CHECK(sink.kept[0].score == 31);
    CHECK(sink.kept[0].result == 1);
    CHECK(sink.kept[0].ply == 0);
    CHECK(sink.kept[1].score == -40);  // Black to move: White's +40 is the mover's -40
    CHECK(sink.kept[1].result == 1);   // White lost
    CHECK(sink.kept[1].ply == 1);
    REQUIRE(reading.problems.listed().size() == 2);
    CHECK_THAT(reading.problems.listed()[0].description,
               Catch::Contains("a score that is not a whole number"));
    CHECK_THAT(reading.problems.listed()[1].description,
               Catch::Contains("a result other than 1.0, 0.5 or 0.0"));
    CHECK(sink.units.size() == 2);
}

// VALUE_NONE marks a position without a score whoever moves: turned to the mover's view as
// if it were White's score, a black position's became -32002, a mate against the mover.
TEST_CASE("bullet: a position without a score stays one for either side to move", "[training]") {
    auto sink = keeping_sink();
    auto reading =
        training::read_bullet(kStart + " | 32002 | 0.5\n" + kAfterE4 + " | 32002 | 0.0\n" +
                                  kAfterE4 + " | -32002 | 1.0\n" + kStart + " | -32002 | 0.0\n",
                              0, sink);
    CHECK(reading.problems.listed().empty());
    REQUIRE(sink.kept.size() == 4);
    for (const auto& seen : sink.kept) CHECK(seen.score == training::kNoScore);
    // A mate beside it is still turned: White's mate is the black mover's loss.
    auto mate = keeping_sink();
    training::read_bullet(kAfterE4 + " | 31990 | 1.0\n", 0, mate);
    REQUIRE(mate.kept.size() == 1);
    CHECK(mate.kept[0].score == -31990);
}

TEST_CASE("text layouts cut after whole records", "[training]") {
    std::string record = plain_record(kStart, 1, 0, 0);
    CHECK(training::plain_layout().last_cut(record + record + "fen x\n", 0) == 2 * record.size());
    CHECK(training::plain_layout().last_cut("fen x\nscore 1\n", 0) == std::string::npos);
    CHECK(training::bullet_layout().last_cut("a | 1 | 1.0\nb | 2", 0) == 12);
    // Nothing to cut in nothing (a fuzzer's find).
    CHECK(training::plain_layout().forced_cut("") == std::string::npos);
    CHECK(training::bullet_layout().forced_cut("") == std::string::npos);
}
