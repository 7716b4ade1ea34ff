#include <catch2/catch.hpp>
#include <string>

#include "san_helpers.hpp"
#include "wdl/chess/board.hpp"

using chess_test::board_from;
using chess_test::play_san;
using wdl::chess::Board;

namespace {

// The FEN after playing one SAN move, or "rejected".
std::string fen_after(const char* fen, const char* san, bool chess960 = false) {
    Board board = board_from(fen, chess960);
    return play_san(board, san) ? board.fen() : "rejected";
}

}  // namespace

TEST_CASE("standard castling on both sides", "[chess][castling]") {
    const char* fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    CHECK(fen_after(fen, "O-O") == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    CHECK(fen_after(fen, "0-0") == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    CHECK(fen_after(fen, "O-O-O") == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    CHECK(fen_after(fen, "0-0-0") == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    Board board = board_from(fen);
    CHECK(board.to_uci(*board.parse_san("O-O")) == "e1g1");
    CHECK(board.to_uci(*board.parse_san("O-O-O")) == "e1c1");

    const char* black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 7";
    CHECK(fen_after(black, "O-O") == "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 4 8");
    CHECK(fen_after(black, "O-O-O") == "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 4 8");
}

TEST_CASE("castling is rejected through, into or out of check and when blocked",
          "[chess][castling]") {
    // The f8 rook attacks f1, which the king crosses.
    CHECK(fen_after("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", "O-O") == "rejected");
    CHECK(fen_after("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", "O-O-O") != "rejected");
    // Into check on g1.
    CHECK(fen_after("r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", "O-O") == "rejected");
    // Out of check.
    CHECK(fen_after("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", "O-O") != "rejected");
    CHECK(fen_after("r3k3/8/8/8/8/8/4r3/R3K2R w KQq - 0 1", "O-O") == "rejected");
    // b1 attacked is fine for long castling: only the rook crosses it.
    CHECK(fen_after("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", "O-O-O") ==
          "1r2k2r/8/8/8/8/8/8/2KR3R b k - 1 1");
    // Blocked path; no right.
    CHECK(fen_after("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O") == "rejected");
    CHECK(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O") == "rejected");
}

TEST_CASE("castling rights are lost by king and rook moves and rook captures",
          "[chess][castling]") {
    Board board = board_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    REQUIRE(play_san(board, "Rxa8+"));
    CHECK(board.fen() == "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    REQUIRE(play_san(board, "Ke7"));
    CHECK(board.fen() == "R6r/4k3/8/8/8/8/8/4K2R w K - 1 2");
    REQUIRE(play_san(board, "Kf1"));
    CHECK(board.fen() == "R6r/4k3/8/8/8/8/8/5K1R b - - 2 2");
}

TEST_CASE("Chess960 castling with the king or rook already on its target square",
          "[chess][castling][960]") {
    // King already on g1: only the rook moves.
    CHECK(fen_after("1k6/8/8/8/8/8/8/6KR w H - 0 1", "O-O", true) ==
          "1k6/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Rook on g1, the king's target: they swap.
    CHECK(fen_after("1k6/8/8/8/8/8/8/5KR1 w G - 0 1", "O-O", true) ==
          "1k6/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Long castling from b1 with the a1 rook.
    CHECK(fen_after("6k1/8/8/8/8/8/8/RK6 w A - 0 1", "O-O-O", true) ==
          "6k1/8/8/8/8/8/8/2KR4 b - - 1 1");
    // Rook on c1, the king's target on the long side.
    CHECK(fen_after("6k1/8/8/8/8/8/8/2RK4 w C - 0 1", "O-O-O", true) ==
          "6k1/8/8/8/8/8/8/2KR4 b - - 1 1");
    // Black, king on c8 stays put.
    CHECK(fen_after("1rk5/8/8/8/8/8/8/6K1 b b - 0 1", "O-O-O", true) ==
          "2kr4/8/8/8/8/8/8/6K1 w - - 1 2");

    Board board = board_from("1k6/8/8/8/8/8/8/6KR w H - 0 1", true);
    CHECK(board.to_uci(*board.parse_san("O-O")) == "g1h1");
}

TEST_CASE("Chess960 castling legality", "[chess][castling][960]") {
    // The rook's target d1 is occupied.
    CHECK(fen_after("6k1/8/8/8/8/8/8/RK1B4 w A - 0 1", "O-O-O", true) == "rejected");
    // The king crosses e1, attacked by the e8 rook.
    CHECK(fen_after("4r1k1/8/8/8/8/8/8/1K5R w H - 0 1", "O-O", true) == "rejected");
    // The castling rook shields g1 from the h1 rook; once it moves, g1 is attacked.
    CHECK(fen_after("k7/8/8/8/8/8/8/5KRr w G - 0 1", "O-O", true) == "rejected");
    // X-FEN inner rook: the b1 rook castles, the a1 rook stays.
    CHECK(fen_after("4k3/8/8/8/8/8/8/RRK5 w B - 0 1", "O-O-O", true) ==
          "4k3/8/8/8/8/8/8/R1KR4 b - - 1 1");
    // Q means the outermost rook, a1, whose path is blocked by the b1 rook.
    CHECK(fen_after("4k3/8/8/8/8/8/8/RRK5 w Q - 0 1", "O-O-O", true) == "rejected");
    // Standard start array in 960 mode, X-FEN KQkq.
    Board board = board_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true);
    CHECK(board.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    CHECK(board.to_uci(*board.parse_san("O-O")) == "e1h1");
    CHECK(board.to_uci(*board.parse_san("O-O-O")) == "e1a1");
}
