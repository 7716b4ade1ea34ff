// The check flag that play() keeps from the moved piece and the line it opened, and the SAN
// legality test that looks at one ray from the king: both against fresh looks at the board.

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <utility>

#include "san_helpers.hpp"
#include "wdl/chess/board.hpp"

using chess_test::board_from;
using chess_test::play_san;
using chess_test::uci_of;
using wdl::chess::Board;
using wdl::chess::Move;
using wdl::chess::MoveList;

namespace {

// Whether the side to move is in check, computed from scratch: set_fen looks at every attacker.
bool in_check_from_scratch(const Board& board) {
    Board fresh;
    REQUIRE(fresh.set_fen(board.fen(), board.is_chess960()));
    return fresh.in_check();
}

}  // namespace

TEST_CASE("the check flag kept by play agrees with a fresh look along random games",
          "[chess][check]") {
    std::mt19937 random(11);
    int checks = 0, positions = 0;
    for (auto [fen, chess960] :
         {std::pair{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
          std::pair{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", false},
          std::pair{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", false},
          std::pair{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
          std::pair{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
          std::pair{"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true}}) {
        for (int game = 0; game < 40; ++game) {
            Board board = board_from(fen, chess960);
            for (int ply = 0; ply < 150; ++ply) {
                MoveList moves;
                board.legal_moves(moves);
                if (moves.empty()) break;
                Move move = moves[random() % moves.size()];
                board.play(move);
                CAPTURE(board.fen());
                REQUIRE(board.in_check() == in_check_from_scratch(board));
                checks += board.in_check();
                ++positions;
            }
        }
    }
    CHECK(positions > 20000);
    CHECK(checks > 500);
}

TEST_CASE("checks by every kind of move: direct, discovered, en passant, castling, promotion",
          "[chess][check]") {
    struct Case {
        const char* fen;
        const char* san;
        bool check;
        bool chess960 = false;
    };
    for (const Case& c : {
             // Direct checks by each piece, and moves that give none.
             Case{"4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", "Ne5", false},
             Case{"4k3/8/8/6N1/8/8/8/4K3 w - - 0 1", "Nf7", false},
             Case{"4k3/8/8/5N2/8/8/8/4K3 w - - 0 1", "Nd6", true},
             Case{"4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", "e7", false},
             Case{"4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d7", true},
             Case{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8", true},
             Case{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra7", false},
             Case{"4k3/4p3/8/8/8/8/8/4K2R w - - 0 1", "Rh8", true},
             Case{"4k3/3p4/8/8/8/8/8/4KB2 w - - 0 1", "Bb5", false},  // blocked
             Case{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "Bb5", true},
             Case{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qh5", true},
             Case{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qd7", true},
             Case{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qd6", false},
             // Discovered: the moved piece leaves the line of a rook or bishop (or a king does).
             Case{"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nc3", true},
             Case{"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nf6", true},  // and direct: double
             Case{"7k/8/8/8/3N4/8/8/B5K1 w - - 0 1", "Nf5", true},
             Case{"7k/8/8/8/3N4/8/8/R5K1 w - - 0 1", "Nf5", false},  // a rook on a diagonal
             Case{"k7/8/8/8/K7/8/8/R7 w - - 0 1", "Kb3", true},
             Case{"k7/8/8/8/K7/8/8/R7 w - - 0 1", "Ka5", false},
             // En passant opening a rank through both pawns' squares, or a diagonal through the
             // captured pawn's square.
             Case{"8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "exd6", true},
             Case{"8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e6", false},
             Case{"6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 1", "exd6", true},
             Case{"7k/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", false},
             // The castling rook gives check, in standard chess and in Chess960.
             Case{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", true},
             Case{"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", true},
             Case{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", false},
             Case{"5k2/8/8/8/8/8/8/1K5R w H - 0 1", "O-O", true, true},
             // Promotions: the new piece checks or not; a promotion that uncovers a rook.
             Case{"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=Q", true},
             Case{"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=N", false},
             Case{"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=R", true},
             Case{"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=B", false},
             Case{"2nk4/1P6/8/8/8/8/8/4K3 w - - 0 1", "bxc8=Q", true},
             Case{"3r4/k3P3/8/8/8/8/8/4R1K1 w - - 0 1", "exd8=N", false},
             Case{"3rk3/4P3/8/8/8/8/8/4R1K1 w - - 0 1", "exd8=N", true},
         }) {
        CAPTURE(c.fen, c.san);
        Board board = board_from(c.fen, c.chess960);
        REQUIRE(play_san(board, c.san));
        CHECK(board.in_check() == c.check);
        CHECK(board.in_check() == in_check_from_scratch(board));
    }
}

TEST_CASE("SAN legality: pins along files, ranks and diagonals, and what does not pin",
          "[chess][san][pin]") {
    // The e2 rook is pinned on the e-file: along it is legal, off it is not.
    Board file_pin = board_from("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    CHECK(uci_of(file_pin, "Re4") == "e2e4");
    CHECK(uci_of(file_pin, "Rxe7+") == "e2e7");
    CHECK(uci_of(file_pin, "Re1") == "none");  // own king
    CHECK(uci_of(file_pin, "Rd2") == "none");
    // A pinned bishop may slide along the pinning diagonal, and take the pinner.
    Board diagonal_pin = board_from("4k3/8/8/8/7q/8/5B2/4K3 w - - 0 1");
    CHECK(uci_of(diagonal_pin, "Bg3") == "f2g3");
    CHECK(uci_of(diagonal_pin, "Bxh4") == "f2h4");
    CHECK(uci_of(diagonal_pin, "Be3") == "none");
    // On the king's line but shielded by another piece, or facing a slider that does not
    // move along that line, or a knight: not pinned.
    CHECK(uci_of(board_from("4k3/4r3/8/4N3/8/8/4R3/4K3 w - - 0 1"), "Rd2") == "e2d2");
    CHECK(uci_of(board_from("4k3/4b3/8/8/8/8/4R3/4K3 w - - 0 1"), "Rd2") == "e2d2");
    CHECK(uci_of(board_from("4k3/8/8/8/7r/8/5B2/4K3 w - - 0 1"), "Be3") == "f2e3");
    CHECK(uci_of(board_from("4k3/4n3/8/8/8/8/4R3/4K3 w - - 0 1"), "Rd2") == "e2d2");
    // A pinned pawn: the push along the pin stays legal, the capture off it does not.
    Board pawn_pin = board_from("4r1k1/8/8/8/3n4/4P3/8/4K3 w - - 0 1");
    CHECK(uci_of(pawn_pin, "e4") == "e3e4");
    CHECK(uci_of(pawn_pin, "exd4") == "none");
    // Of two rooks that reach d2, the pinned one is not a candidate: no disambiguation needed.
    Board two_rooks = board_from("4k3/4r3/8/8/8/8/4R2R/4K3 w - - 0 1");
    CHECK(uci_of(two_rooks, "Rf2") == "h2f2");
    CHECK(uci_of(two_rooks, "Rhf2") == "h2f2");
    CHECK(uci_of(two_rooks, "Ref2") == "none");
    // A slider that reaches the target only through a blocker is no candidate either.
    CHECK(uci_of(board_from("4k3/8/8/8/8/8/R1N4R/4K3 w - - 0 1"), "Rb2") == "a2b2");
    CHECK(uci_of(board_from("4k3/8/8/8/8/1Q6/2N5/K6Q w - - 0 1"), "Qd1") == "h1d1");
}

TEST_CASE("SAN legality in check: block, capture, king steps, and double check",
          "[chess][san][check]") {
    // A rook checks along the first rank: the king may not step along it (x-ray).
    Board rank_check = board_from("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    CHECK(uci_of(rank_check, "Kf1") == "none");
    CHECK(uci_of(rank_check, "Kd1") == "none");
    CHECK(uci_of(rank_check, "Ke2") == "e1e2");
    // Blocking and capturing the checker are legal; other moves are not.
    Board block = board_from("4k3/8/8/8/8/1N3B2/8/r3K3 w - - 0 1");
    CHECK(uci_of(block, "Nc1") == "b3c1");
    CHECK(uci_of(block, "Nxa1") == "b3a1");
    CHECK(uci_of(block, "Nd4") == "none");
    CHECK(uci_of(block, "Bd1") == "f3d1");
    CHECK(uci_of(block, "Bh5") == "none");
    // Double check (knight and discovered rook): only the king may move.
    Board double_check = board_from("4k3/8/r7/8/4N3/8/8/4R1K1 w - - 0 1");
    REQUIRE(play_san(double_check, "Nf6+"));
    CHECK(double_check.in_check());
    CHECK(uci_of(double_check, "Rxf6") == "none");
    CHECK(uci_of(double_check, "Re6") == "none");
    CHECK(uci_of(double_check, "Kf7") == "e8f7");
    CHECK(uci_of(double_check, "Kd8") == "e8d8");
    CHECK(uci_of(double_check, "Ke7") == "none");
    CHECK(uci_of(double_check, "Kd7") == "none");
}
