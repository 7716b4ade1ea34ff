#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "wdl/chess/board.hpp"

using wdl::chess::Board;

namespace {

// Checks perft(1..n) of a position against published node counts.
void check_perft(const std::string& fen, const std::vector<std::uint64_t>& expected,
                 bool chess960 = false) {
    Board board;
    REQUIRE(board.set_fen(fen, chess960));
    for (std::size_t depth = 1; depth <= expected.size(); ++depth) {
        CAPTURE(fen, depth);
        CHECK(board.perft(static_cast<int>(depth)) == expected[depth - 1]);
    }
}

}  // namespace

TEST_CASE("perft of the start position", "[chess][perft]") {
    check_perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                {20, 400, 8902, 197281, 4865609});
}

TEST_CASE("perft of Kiwipete", "[chess][perft]") {
    check_perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
                {48, 2039, 97862, 4085603});
}

TEST_CASE("perft of position 3 (en passant pins along the rank)", "[chess][perft]") {
    check_perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", {14, 191, 2812, 43238, 674624});
}

TEST_CASE("perft of position 4 (promotions, castling under attack)", "[chess][perft]") {
    check_perft("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                {6, 264, 9467, 422333});
    // The same position with colours swapped must give the same numbers.
    check_perft("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
                {6, 264, 9467, 422333});
}

TEST_CASE("perft of position 5", "[chess][perft]") {
    check_perft("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                {44, 1486, 62379, 2103487});
}

TEST_CASE("perft of position 6", "[chess][perft]") {
    check_perft("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
                {46, 2079, 89890, 3894594});
}

TEST_CASE("perft of Chess960 positions", "[chess][perft][960]") {
    check_perft("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                {21, 528, 12189, 326672}, true);
    check_perft("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
                {21, 807, 18002, 667366}, true);
    check_perft("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
                {20, 479, 10471, 273318}, true);
}

TEST_CASE("perft of depth 0 is one node", "[chess][perft]") { CHECK(Board().perft(0) == 1); }
