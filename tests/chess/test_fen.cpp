#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "wdl/chess/board.hpp"

using wdl::chess::Board;
using wdl::chess::Color;
using wdl::chess::PieceType;

TEST_CASE("the default board is the start position", "[chess][fen]") {
    Board board;
    CHECK(board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(board.side_to_move() == Color::White);
    CHECK(board.fullmove_number() == 1);
    CHECK(board.halfmove_clock() == 0);
    CHECK(board.material() == 78);
    CHECK(board.piece_type_on(4) == PieceType::King);
    CHECK(board.color_on(60) == Color::Black);
    CHECK_FALSE(board.piece_type_on(28));
}

TEST_CASE("FEN round trip", "[chess][fen]") {
    for (const char* fen : {
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
             "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
             "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w Kq d6 0 3",
             "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40",
         }) {
        Board board;
        REQUIRE(board.set_fen(fen));
        CHECK(board.fen() == fen);
    }
}

TEST_CASE("Chess960 FEN round trip uses Shredder castling letters", "[chess][fen][960]") {
    for (const char* fen : {
             "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
             "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
             "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
         }) {
        Board board;
        REQUIRE(board.set_fen(fen, true));
        CHECK(board.fen() == fen);
        CHECK(board.is_chess960());
    }
}

TEST_CASE("X-FEN castling letters pick the outermost rook or a named inner rook",
          "[chess][fen][960]") {
    Board board;
    REQUIRE(board.set_fen("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1", true));
    CHECK(board.fen() == "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1");
    REQUIRE(board.set_fen("1r1kr1r1/8/8/8/8/8/8/1R1KR1R1 w KQkq - 0 1", true));
    CHECK(board.fen() == "1r1kr1r1/8/8/8/8/8/8/1R1KR1R1 w GBgb - 0 1");
    REQUIRE(board.set_fen("1r1kr1r1/8/8/8/8/8/8/1R1KR1R1 w Ee - 0 1", true));
    CHECK(board.fen() == "1r1kr1r1/8/8/8/8/8/8/1R1KR1R1 w Ee - 0 1");
}

TEST_CASE("missing counters default to 0 and 1", "[chess][fen]") {
    Board board;
    REQUIRE(board.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"));
    CHECK(board.halfmove_clock() == 0);
    CHECK(board.fullmove_number() == 1);
    REQUIRE(board.set_fen("4k3/8/8/8/8/8/8/4K3 w - - 7"));
    CHECK(board.halfmove_clock() == 7);
    CHECK(board.fullmove_number() == 1);
    REQUIRE(board.set_fen("4k3/8/8/8/8/8/8/4K3 w"));
    CHECK(board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

TEST_CASE("castling rights that do not match the pieces are dropped", "[chess][fen]") {
    Board board;
    // Standard chess: king off the e-file, rook off its corner.
    REQUIRE(board.set_fen("r4k1r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1"));
    CHECK(board.fen() == "r4k1r/8/8/8/8/8/8/1R2K2R w K - 0 1");
}

TEST_CASE("an en-passant square is kept without a possible capture, dropped without a pawn",
          "[chess][fen]") {
    Board board;
    REQUIRE(board.set_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1"));
    CHECK(board.fen() == "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    REQUIRE(board.set_fen("4k3/8/8/8/8/8/8/4K3 w - d6 0 1"));
    CHECK(board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

TEST_CASE("invalid FEN is rejected and leaves the board unchanged", "[chess][fen]") {
    const std::string before =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    Board board;
    REQUIRE(board.set_fen(before));
    for (const char* bad : {
             "", "   ",
             "8/8/8/8/8/8/8/8 w - - 0 1",                                   // no kings
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",    // side
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",   // 9 files
             "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",      // 7 ranks
             "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",  // 9 ranks
             "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",    // pawn on rank 8
             "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // digit 9
             "4k3/8/8/8/8/8/8/4K2R b - - 0 1x",                             // trailing junk
             "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",  // side not to move is in check
             "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
             "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", "4k3/8/8/8/8/8/8/4K3 w XYZ - 0 1",
             "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/4K2k w - - 0 1",  // too many pieces
             "kK6/8/8/8/8/8/8/K7 w - - 0 1",                       // two white kings
             // 15 queens a side: 270 points, more than 8 promotions could make
             "qqqqqqqq/qqqqqqqk/8/8/8/8/QQQQQQQK/QQQQQQQQ w - - 0 1",
             "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNQ w - - 0 1",  // a promoted queen with 8 pawns
         }) {
        CAPTURE(bad);
        CHECK_FALSE(board.set_fen(bad));
        CHECK(board.fen() == before);
    }
}

TEST_CASE("the most material promotions allow is accepted and fits a key", "[chess][fen]") {
    Board board;
    // Every pawn promoted to a queen: 9 queens, 2 rooks, 2 bishops, 2 knights a side.
    REQUIRE(board.set_fen("qqqqqqqq/qrrbbnnk/8/8/8/8/QRRBBNNK/QQQQQQQQ w - - 0 1"));
    CHECK(board.material() == 2 * (9 * 9 + 2 * 5 + 2 * 3 + 2 * 3));
    CHECK(board.material() <= 255);
}

TEST_CASE("set_fen never crashes on random bytes", "[chess][fen][fuzz]") {
    std::mt19937 random(12345);
    const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqAHah0e3 6";
    Board board;
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        int length = static_cast<int>(random() % 80);
        for (int j = 0; j < length; ++j) {
            text +=
                i % 2 ? static_cast<char>(random() % 256) : alphabet[random() % alphabet.size()];
        }
        if (board.set_fen(text, i % 3 == 0)) {
            CHECK(board.perft(1) < 256);  // the accepted position is usable
        }
    }
}

TEST_CASE("material counts P=1 N=B=3 R=5 Q=9", "[chess][material]") {
    Board board;
    REQUIRE(board.set_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    CHECK(board.material() == 0);
    REQUIRE(board.set_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"));
    CHECK(board.material() == 78);
    REQUIRE(board.set_fen("4k3/1P6/8/8/8/8/6p1/4KQ2 w - - 0 1"));
    CHECK(board.material() == 11);
}
