#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "san_helpers.hpp"
#include "wdl/chess/board.hpp"

using chess_test::board_from;
using chess_test::play_san;
using chess_test::uci_of;
using chess_test::write_san;
using wdl::chess::Board;
using wdl::chess::Color;
using wdl::chess::Move;
using wdl::chess::MoveKind;
using wdl::chess::MoveList;

namespace {

bool is_legal(const Board& board, Move move) {
    MoveList moves;
    board.legal_moves(moves);
    return std::find(moves.begin(), moves.end(), move) != moves.end();
}

}  // namespace

TEST_CASE("SAN of simple moves in the start position", "[chess][san]") {
    Board board;
    CHECK(uci_of(board, "e4") == "e2e4");
    CHECK(uci_of(board, "e3") == "e2e3");
    CHECK(uci_of(board, "Nf3") == "g1f3");
    CHECK(uci_of(board, "Nc3") == "b1c3");
    CHECK(uci_of(board, "Ngf3") == "g1f3");
    CHECK(uci_of(board, "Ng1f3") == "g1f3");
}

TEST_CASE("SAN disambiguation by file, rank and square", "[chess][san]") {
    Board by_file = board_from("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1");
    CHECK(uci_of(by_file, "Ne4") == "none");
    CHECK(uci_of(by_file, "Nce4") == "c3e4");
    CHECK(uci_of(by_file, "Nge4") == "g3e4");
    CHECK(uci_of(by_file, "Nb5") == "c3b5");

    Board by_rank = board_from("4k3/8/8/2N5/8/2N5/8/4K3 w - - 0 1");
    CHECK(uci_of(by_rank, "Ne4") == "none");
    CHECK(uci_of(by_rank, "Nce4") == "none");
    CHECK(uci_of(by_rank, "N3e4") == "c3e4");
    CHECK(uci_of(by_rank, "N5e4") == "c5e4");

    Board by_square = board_from("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    CHECK(uci_of(by_square, "Qb2") == "none");
    CHECK(uci_of(by_square, "Qab2") == "none");
    CHECK(uci_of(by_square, "Q1b2") == "none");
    CHECK(uci_of(by_square, "Qa1b2") == "a1b2");
    CHECK(uci_of(by_square, "Qa3b2") == "a3b2");
    CHECK(uci_of(by_square, "Qcb2") == "c1b2");
    CHECK(uci_of(by_square, "Qa1xb2") == "a1b2");
}

TEST_CASE("a pinned piece does not take part in disambiguation", "[chess][san]") {
    // The g3 knight is pinned by the e1 bishop against the h4 king.
    Board board = board_from("4k3/8/8/8/7K/2N3N1/8/4b3 w - - 0 1");
    CHECK(uci_of(board, "Ne4") == "c3e4");
    CHECK(uci_of(board, "Nce4") == "c3e4");
    CHECK(uci_of(board, "Nge4") == "none");
}

TEST_CASE("illegal SAN is rejected", "[chess][san]") {
    Board start;
    CHECK(uci_of(start, "Bc4") == "none");   // blocked by the e2 pawn
    CHECK(uci_of(start, "Ra3") == "none");   // blocked by the a2 pawn
    CHECK(uci_of(start, "Qe4") == "none");   // no queen reaches e4
    CHECK(uci_of(start, "Nd4") == "none");   // no knight reaches d4
    CHECK(uci_of(start, "Ke2") == "none");   // own piece on e2
    CHECK(uci_of(start, "e5") == "none");    // a pawn moves at most two squares
    CHECK(uci_of(start, "exd3") == "none");  // nothing to capture
    CHECK(uci_of(start, "e6") == "none");
    CHECK(uci_of(start, "Nf6") == "none");  // that is Black's move
    CHECK(uci_of(start, "O-O") == "none");

    Board into_check = board_from("3rk3/8/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(uci_of(into_check, "Kd1") == "none");
    CHECK(uci_of(into_check, "Kd2") == "none");
    CHECK(uci_of(into_check, "Kf2") == "e1f2");

    // In check: only moves that resolve it.
    Board in_check = board_from("4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1");
    CHECK(uci_of(in_check, "Nf3") == "none");
    CHECK(uci_of(in_check, "Nb1") == "d2b1");
    CHECK(uci_of(in_check, "Ke2") == "e1e2");
}

TEST_CASE("captures are accepted with or without 'x'", "[chess][san]") {
    Board board = board_from("4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1");
    CHECK(uci_of(board, "exd5") == "e4d5");
    CHECK(uci_of(board, "ed5") == "e4d5");
    CHECK(uci_of(board, "Ra7") == "a1a7");
    CHECK(uci_of(board, "Rxa7") == "a1a7");  // a spurious 'x' is tolerated for pieces
    CHECK(uci_of(board, "xd5") == "none");
    CHECK(uci_of(board, "exe5") == "none");
}

TEST_CASE("en passant", "[chess][san][ep]") {
    Board board = board_from("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    auto move = board.parse_san("exd6");
    REQUIRE(move);
    CHECK(move->kind == MoveKind::EnPassant);
    CHECK(uci_of(board, "ed6") == "e5d6");
    CHECK(uci_of(board, "exd6e.p.") == "none");
    board.play(*move);
    CHECK(board.fen() == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");

    // Without the ep square the capture is impossible.
    Board no_ep = board_from("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
    CHECK(uci_of(no_ep, "exd6") == "none");

    // A double push records the ep square, and the capture follows.
    Board game = board_from("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    REQUIRE(play_san(game, "d5"));
    CHECK(game.fen() == "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    CHECK(uci_of(game, "exd6") == "e5d6");
}

TEST_CASE("an en-passant capture that exposes the king along the rank is illegal",
          "[chess][san][ep]") {
    Board board = board_from("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
    CHECK(uci_of(board, "exd6") == "none");
    MoveList moves;
    board.legal_moves(moves);
    for (Move move : moves) CHECK(move.kind != MoveKind::EnPassant);

    // The captured pawn was shielding the king from a bishop on the diagonal.
    Board diagonal = board_from("8/5b2/8/3pP3/8/1K6/8/7k w - d6 0 1");
    CHECK(uci_of(diagonal, "exd6") == "none");
    // The capturing pawn is pinned: leaving the pin line is illegal, moving along it is not.
    Board pinned_off_line = board_from("8/6b1/8/3pP3/8/2K5/8/7k w - d6 0 1");
    CHECK(uci_of(pinned_off_line, "exd6") == "none");
    Board pinned_on_line = board_from("8/2b5/8/3pP3/8/8/7K/k7 w - d6 0 1");
    CHECK(uci_of(pinned_on_line, "exd6") == "e5d6");
    // Capturing the pawn that gives check resolves the check.
    Board checking_pawn = board_from("7k/8/8/3pP3/4K3/8/8/8 w - d6 0 1");
    CHECK(uci_of(checking_pawn, "exd6") == "e5d6");
}

TEST_CASE("promotions with and without '=', underpromotion, capture", "[chess][san][promotion]") {
    Board board = board_from("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(uci_of(board, "e8=Q") == "e7e8q");
    CHECK(uci_of(board, "e8Q") == "e7e8q");
    CHECK(uci_of(board, "e8=Q+") == "e7e8q");
    CHECK(uci_of(board, "e8=N") == "e7e8n");
    CHECK(uci_of(board, "e8R") == "e7e8r");
    CHECK(uci_of(board, "e8=B") == "e7e8b");
    CHECK(uci_of(board, "exd8=Q") == "e7d8q");
    CHECK(uci_of(board, "exd8N") == "e7d8n");
    CHECK(uci_of(board, "e8") == "none");  // the promotion piece is required
    CHECK(uci_of(board, "e8=K") == "none");
    CHECK(uci_of(board, "e8=P") == "none");
    CHECK(uci_of(board, "exf8=Q") == "none");

    CHECK(board.material() == 6);
    board.play(*board.parse_san("exd8=N"));
    CHECK(board.fen() == "3N3k/8/8/8/8/8/8/4K3 b - - 0 1");
    CHECK(board.material() == 3);

    Board black = board_from("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1");
    CHECK(uci_of(black, "a1=Q+") == "a2a1q");
    CHECK(uci_of(black, "axb1=R") == "a2b1r");
    CHECK(uci_of(black, "a1") == "none");
    Board not_last_rank = board_from("4k3/8/8/8/8/p7/8/4K3 b - - 0 1");
    CHECK(uci_of(not_last_rank, "a2=Q") == "none");
}

TEST_CASE("annotation suffixes are tolerated", "[chess][san]") {
    Board board;
    for (const char* san :
         {"e4", "e4+", "e4#", "e4!", "e4?", "e4!?", "e4?!", "e4!!", "e4??", "e4+!?", "e4#?!"}) {
        CAPTURE(san);
        CHECK(uci_of(board, san) == "e2e4");
    }
    Board castling = board_from("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    CHECK(uci_of(castling, "O-O+") == "e1g1");
    CHECK(uci_of(castling, "0-0!?") == "e1g1");
}

TEST_CASE("garbage SAN returns nullopt", "[chess][san][fuzz]") {
    Board board = board_from("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
    for (std::string_view garbage :
         {std::string_view(""),        std::string_view("Zz9"),      std::string_view("e9"),
          std::string_view("i4"),      std::string_view("e"),        std::string_view("+"),
          std::string_view("!!??"),    std::string_view("O-O-O-O"),  std::string_view("O-"),
          std::string_view("Nf"),      std::string_view("xx"),       std::string_view("e4e4e4e4"),
          std::string_view("N"),       std::string_view("=Q"),       std::string_view("Qa1b2c3"),
          std::string_view("\0\0", 2), std::string_view("\xff\xfe"), std::string_view("0-0-"),
          std::string_view("o-o"),     std::string_view("Pe4"),      std::string_view("-")}) {
        CAPTURE(garbage);
        CHECK_FALSE(board.parse_san(garbage));
    }
}

TEST_CASE("random bytes never crash parse_san and accepted moves are legal", "[chess][san][fuzz]") {
    std::mt19937 random(2024);
    const std::string alphabet = "abcdefgh12345678NBRQKxO0-=+#!?";
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
                            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1"}) {
        Board board = board_from(fen);
        for (int i = 0; i < 20000; ++i) {
            std::string text;
            int length = static_cast<int>(random() % 9);
            for (int j = 0; j < length; ++j) {
                text += i % 4 == 0 ? static_cast<char>(random() % 256)
                                   : alphabet[random() % alphabet.size()];
            }
            if (auto move = board.parse_san(text)) {
                CAPTURE(text);
                CHECK(is_legal(board, *move));
            }
        }
    }
}

// Cross-check against the move generator: in positions along random games, every legal move
// written as SAN (also without 'x' and '=') parses back to itself.
TEST_CASE("every legal move round-trips through SAN", "[chess][san]") {
    std::mt19937 random(7);
    int checked = 0;
    for (auto [fen, chess960] :
         {std::pair{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
          std::pair{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", false},
          std::pair{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
          std::pair{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", false},
          std::pair{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
          std::pair{"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true}}) {
        for (int game = 0; game < 30; ++game) {
            Board board = board_from(fen, chess960);
            for (int ply = 0; ply < 120; ++ply) {
                MoveList moves;
                board.legal_moves(moves);
                if (moves.empty()) break;
                for (Move move : moves) {
                    std::string san = write_san(board, move);
                    CAPTURE(board.fen(), san);
                    auto parsed = board.parse_san(san);
                    REQUIRE(parsed);
                    CHECK(*parsed == move);
                    std::string sloppy = san;
                    std::erase(sloppy, '=');
                    std::erase(sloppy, 'x');
                    CHECK(board.parse_san(sloppy) == parsed);
                    ++checked;
                }
                board.play(moves[random() % moves.size()]);
            }
        }
    }
    CHECK(checked > 10000);
}
