#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "keeping_sink.hpp"
#include "king_walk_binpack.hpp"
#include "test_data.hpp"
#include "wdl/training/binpack.hpp"

using namespace wdl;

namespace {

std::string file_bytes(const std::string& relative) {
    return testing::read_decompressed(testing::test_data_path(relative));
}

// A sink keeping each position as .plain lines (without the move).
training::test::KeepingSink<std::string> plain_lines_sink() {
    return training::test::KeepingSink<std::string>([](const training::TrainingPosition& position) {
        return "fen " + position.board.fen() + "\nscore " + std::to_string(position.score) +
               "\nply " + std::to_string(position.ply) + "\nresult " +
               std::to_string(position.result) + "\n";
    });
}

// The records of .plain text without their "move" and "e" lines.
std::vector<std::string> plain_positions(const std::string& text) {
    std::vector<std::string> positions;
    std::istringstream lines(text);
    std::string line, record;
    while (std::getline(lines, line)) {
        if (line == "e") {
            positions.push_back(record);
            record.clear();
        } else if (!line.starts_with("move ")) {
            record += line + "\n";
        }
    }
    return positions;
}

std::uint32_t block_size(const std::string& bytes, std::size_t at) {
    std::uint32_t size = 0;
    for (int i = 3; i >= 0; --i) size = size << 8 | std::uint8_t(bytes[at + 4 + std::size_t(i)]);
    return size;
}

}  // namespace

// The fixture was written by Stockfish's own converter (tests/data/training/README.md) from
// random games full of castlings, en-passant captures and promotions; the same converter wrote
// it back as .plain. Every position must come out as the converter reads it.
TEST_CASE("binpack: random games decode position by position as Stockfish's converter reads them",
          "[training]") {
    auto expected = plain_positions(file_bytes("training/random_games.plain.gz"));
    auto sink = plain_lines_sink();
    auto reading = training::read_binpack(file_bytes("training/random_games.binpack"), 0, sink);
    CHECK(reading.problems.listed().empty());
    REQUIRE(sink.kept.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("position " << i);
        REQUIRE(sink.kept[i] == expected[i]);
    }
    CHECK(sink.units.size() == 1);  // the file's one block
}

TEST_CASE("binpack: a damaged block is dropped whole and every other block kept", "[training]") {
    std::string one = file_bytes("training/games.binpack");
    REQUIRE(block_size(one, 0) + 8 == one.size());  // one block
    auto whole = plain_lines_sink();
    training::read_binpack(one, 0, whole);
    const std::size_t per_block = whole.kept.size();
    REQUIRE(per_block == 9309);

    SECTION("a stem that is no position") {
        std::string bytes = one + one + one;
        std::memset(bytes.data() + one.size() + 8, 0xFF, 8);  // 64 pieces on the board
        auto sink = plain_lines_sink();
        auto reading = training::read_binpack(bytes, 1000, sink);
        CHECK(reading.records == 3);
        CHECK(sink.kept.size() == 2 * per_block);
        CHECK(sink.dropped == 1);
        REQUIRE(reading.problems.listed().size() == 1);
        CHECK(reading.problems.listed()[0].game_index == 1);
        CHECK(reading.problems.listed()[0].description ==
              "at byte " + std::to_string(1000 + one.size()) +
                  ", a position of more than 32 pieces");
    }
    SECTION("a file cut short in its last block") {
        std::string bytes = one + one + one.substr(0, one.size() / 2);
        auto sink = plain_lines_sink();
        auto reading = training::read_binpack(bytes, 0, sink);
        CHECK(sink.kept.size() == 2 * per_block);
        REQUIRE(reading.problems.listed().size() == 1);
        CHECK_THAT(reading.problems.listed()[0].description,
                   Catch::Contains("the file ends after"));
    }
    SECTION("garbage between blocks") {
        std::string bytes = one + std::string(100, 'x') + one;
        auto sink = plain_lines_sink();
        auto reading = training::read_binpack(bytes, 0, sink);
        CHECK(sink.kept.size() == 2 * per_block);
        REQUIRE(reading.problems.listed().size() == 1);
        CHECK(reading.problems.listed()[0].description ==
              "at byte " + std::to_string(one.size()) + ", 100 bytes that are no binpack block");
    }
    SECTION("a size raised over the blocks after it") {
        // The first block says it holds the next two too: its chains are read until its own
        // end, the second block's header read as a chain is damage, and the reader finds the
        // header again there instead of skipping the size it was given.
        std::string bytes = one + one + one + one;
        std::uint32_t raised = block_size(one, 0) + 2 * std::uint32_t(one.size());
        for (int i = 0; i < 4; ++i) bytes[4 + std::size_t(i)] = char(raised >> (8 * i) & 0xFF);
        auto sink = plain_lines_sink();
        auto reading = training::read_binpack(bytes, 0, sink);
        CHECK(reading.records == 4);
        CHECK(sink.kept.size() == 3 * per_block);
        CHECK(sink.dropped == 1);
        REQUIRE(reading.problems.listed().size() == 1);
        CHECK(reading.problems.listed()[0].game_index == 0);
        CHECK_THAT(reading.problems.listed()[0].description, Catch::StartsWith("at byte 0, "));
        CHECK(sink.units ==
              std::vector<std::uint64_t>{0, one.size(), 2 * one.size(), 3 * one.size()});
    }
    SECTION("a movetext with its last bytes lost") {
        // The block's size says less than its chains need: the last chain runs past it.
        std::string bytes = one;
        std::uint32_t shorter = block_size(one, 0) - 3;
        for (int i = 0; i < 4; ++i) bytes[4 + std::size_t(i)] = char(shorter >> (8 * i) & 0xFF);
        bytes.resize(8 + shorter);
        auto sink = plain_lines_sink();
        auto reading = training::read_binpack(bytes + one, 0, sink);
        CHECK(sink.kept.size() == per_block);
        REQUIRE(reading.problems.listed().size() == 1);
        CHECK_THAT(reading.problems.listed()[0].description,
                   Catch::Contains("runs past the end of its block"));
    }
}

TEST_CASE("binpack layout: cut after whole blocks, garbage apart", "[training]") {
    const auto& layout = training::binpack_layout();
    std::string one = file_bytes("training/games.binpack");
    std::string two_and_half = one + one + one.substr(0, one.size() / 2);
    CHECK(layout.last_cut(two_and_half, 0) == 2 * one.size());
    CHECK(layout.last_cut(one.substr(0, 100), 0) == std::string::npos);
    // A block may be long: a valid header is never cut by force.
    CHECK(layout.forced_cut(one.substr(0, 100)) == std::string::npos);
    std::string garbage = std::string(50, 'x') + one;
    CHECK(layout.last_cut(garbage, 0) == 50);
    CHECK(layout.forced_cut(std::string(50, 'x')) == 43);  // a header's 7 first bytes kept
    CHECK(std::string(layout.record_noun()) == "block");
}

// A chain whose move code names moves that no game played: the black king walks onto a square
// the rook attacks, then White castles onto it. Decoded without a legality check, the board
// lost a king; the block must be dropped at the first illegal move instead.
TEST_CASE("binpack: a chain of illegal moves is damage, not a position", "[training]") {
    std::string chain(34, '\0');
    // White: Ke1, Rh1 (may castle), Pa2; Black: Kg3. White to move, a2a3.
    std::uint64_t occupied = (1ull << 4) | (1ull << 7) | (1ull << 8) | (1ull << 22);
    for (int i = 0; i < 8; ++i) chain[std::size_t(i)] = char(occupied >> (56 - 8 * i) & 0xFF);
    chain[8] = char(10 | 13 << 4);
    chain[9] = char(0 | 11 << 4);
    unsigned move = 8u << 8 | 16u << 2;
    chain[24] = char(move >> 8);
    chain[25] = char(move & 0xFF);
    chain[33] = 7;  // plies after the stem
    std::string bits =
        "001"
        "00000"  // ... Kg2
        "10"
        "00000"  // a4
        "001"
        "00000"  // ... Kg1, into the rook's attack
        "00"
        "101"
        "00000"  // O-O onto the black king
        "100"
        "00000"
        "00"
        "1100"
        "00000"
        "000000000000000000000000";
    while (bits.size() % 8) bits += '0';
    for (std::size_t i = 0; i < bits.size(); i += 8)
        chain += char(std::stoi(bits.substr(i, 8), nullptr, 2));
    std::string block = "BINP";
    for (int i = 0; i < 4; ++i) block += char(chain.size() >> (8 * i) & 0xFF);
    block += chain;
    auto sink = plain_lines_sink();
    auto reading = training::read_binpack(block, 0, sink);
    CHECK(sink.kept.empty());
    CHECK(sink.dropped == 1);
    REQUIRE(reading.problems.listed().size() == 1);
    CHECK(reading.problems.listed()[0].description ==
          "at byte 0, a move that is not legal in its position");
}

namespace {

// Counts what a scan would hold: positions seen and not yet counted (count_so_far or the
// unit's end counts them, a drop loses them), and the most it ever held.
class HoldingSink : public training::PositionSink {
  public:
    std::uint64_t counted = 0, held = 0, most_held = 0;
    void begin_unit(std::uint64_t) override {}
    void see(const training::TrainingPosition&) override {
        ++held;
        most_held = std::max(most_held, held);
    }
    void count_so_far() override {
        counted += held;
        held = 0;
    }
    void end_unit() override { count_so_far(); }
    void drop_unit() override { held = 0; }
};

}  // namespace

// Issue 52: a thread held every key of a block until its end, 8 bytes a position: two blocks
// of 100 MiB took 3.9 GB. A block beyond Stockfish's size is checked whole first, then counted
// chain by chain: what is held is a chain, not the block.
TEST_CASE("binpack: a huge block is counted chain by chain, and still dropped whole when damaged",
          "[training]") {
    using training::test::kKingWalkPositions;
    std::string small = training::test::king_walk_block(64 << 10);
    std::string large = training::test::king_walk_block((std::size_t{2} << 20) + (64 << 10));
    std::size_t chain = training::test::king_walk_chain().size();
    std::uint64_t small_positions = (small.size() - 8) / chain * kKingWalkPositions;
    std::uint64_t large_positions = (large.size() - 8) / chain * kKingWalkPositions;
    {
        HoldingSink sink;
        auto reading = training::read_binpack(small + large, 0, sink);
        CHECK(reading.problems.listed().empty());
        CHECK(reading.records == 2);
        CHECK(sink.counted == small_positions + large_positions);
        // A block of Stockfish's size is held whole (as fast as ever); the huge one a chain.
        CHECK(sink.most_held == small_positions);
    }
    {
        HoldingSink sink;
        training::read_binpack(large, 0, sink);
        CHECK(sink.most_held == std::uint64_t(kKingWalkPositions));
    }
    // Its last chain's stem made no position: nothing of the block counts.
    std::string damaged = large;
    std::memset(damaged.data() + damaged.size() - chain, 0xFF, 8);
    HoldingSink sink;
    auto reading = training::read_binpack(damaged + small, 0, sink);
    CHECK(reading.problems.listed().size() == 1);
    CHECK(sink.counted == small_positions);
}
