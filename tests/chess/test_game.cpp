#include <catch2/catch.hpp>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "san_helpers.hpp"
#include "wdl/chess/board.hpp"

using chess_test::play_san;
using wdl::chess::Board;
using wdl::chess::Color;
using wdl::chess::Move;
using wdl::chess::MoveList;

namespace {

// Morphy vs. Duke Karl / Count Isouard, Paris 1858 (the "Opera game").
constexpr const char* opera_game =
    "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 "
    "Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#";

// Kasparov vs. Topalov, Wijk aan Zee 1999, up to Black's resignation.
constexpr const char* kasparov_topalov =
    "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7 "
    "Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 Rhe1 d4 Nd5 "
    "Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4 Qxf6 "
    "Kxa3 Qxa6+ Kxb4 c3+ Kxc3 Qa1+ Kd2 Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 Qxh8 Rd3 Qa8 c3 "
    "Qa4+ Ke1 f4 f5 Kc1 Rd2 Qa7";

std::vector<std::string> split_words(const char* text) {
    std::istringstream stream(text);
    std::vector<std::string> words;
    for (std::string word; stream >> word;) words.push_back(word);
    return words;
}

}  // namespace

TEST_CASE("a real game replays from SAN to checkmate", "[chess][game]") {
    Board board;
    for (const std::string& san : split_words(opera_game)) {
        CAPTURE(san, board.fen());
        REQUIRE(play_san(board, san));
    }
    CHECK(board.fen() == "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    CHECK(board.in_check());
    MoveList moves;
    board.legal_moves(moves);
    CHECK(moves.empty());
    CHECK(board.material() == 40);
}

TEST_CASE("a long real game replays from SAN", "[chess][game]") {
    Board board;
    for (const std::string& san : split_words(kasparov_topalov)) {
        CAPTURE(san, board.fen());
        REQUIRE(play_san(board, san));
    }
    CHECK(board.side_to_move() == Color::Black);
    CHECK(board.fullmove_number() == 44);
}

TEST_CASE("move counters", "[chess][game]") {
    Board board;
    REQUIRE(play_san(board, "e4"));
    CHECK(board.fullmove_number() == 1);
    CHECK(board.side_to_move() == Color::Black);
    CHECK(board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    REQUIRE(play_san(board, "e5"));
    CHECK(board.fullmove_number() == 2);
    REQUIRE(play_san(board, "Nf3"));
    CHECK(board.halfmove_clock() == 1);
    REQUIRE(play_san(board, "Nc6"));
    CHECK(board.halfmove_clock() == 2);
    CHECK(board.fullmove_number() == 3);
    REQUIRE(play_san(board, "Nxe5"));
    CHECK(board.halfmove_clock() == 0);
    CHECK(board.material() == 77);
}

// Not a test: measures parse_san + play. Run with: test_chess "[.bench]"
TEST_CASE("benchmark: SAN replay", "[.bench]") {
    std::vector<std::string> words = split_words(kasparov_topalov);
    constexpr int repetitions = 100000;
    std::uint64_t checksum = 0;
    // CPU time rather than wall time: the machine is shared.
    std::clock_t start = std::clock();
    for (int i = 0; i < repetitions; ++i) {
        Board board;
        for (const std::string& san : words) {
            Move move = *board.parse_san(san);
            checksum += move.to;
            board.play(move);
        }
    }
    double nanoseconds = 1e9 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    double moves = static_cast<double>(repetitions) * static_cast<double>(words.size());
    std::cout << "parse_san + play: " << nanoseconds / moves << " ns/move (checksum " << checksum
              << ")\n";
}
