// Writes random games as Stockfish's .plain training data, for the decoding fixture of
// tests/data/training (its README gives the commands): moves drawn at random, with castling,
// en-passant captures and promotions (under-promotions too) preferred whenever legal, so that
// every branch of the binpack move code is met; random scores (some mates, some VALUE_NONE)
// and results. Not a test itself. Usage: random_plain GAMES SEED
#include <iostream>
#include <random>
#include <string>

#include "wdl/chess/board.hpp"

using namespace wdl::chess;

namespace {

bool is_rare(const Move& move) { return move.kind != MoveKind::Normal; }

int random_score(std::mt19937_64& random) {
    int kind = int(random() % 20);
    if (kind == 0) return 32002;                                                   // no score
    if (kind == 1) return (random() % 2 ? 1 : -1) * (32000 - int(random() % 40));  // mate
    return int(random() % 4001) - 2000;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    int games = std::stoi(argv[1]);
    std::mt19937_64 random(std::stoull(argv[2]));
    for (int game = 0; game < games; ++game) {
        Board board;
        int result = int(random() % 3) - 1;  // White's
        MoveList moves;
        for (int ply = 0; ply < 160; ++ply) {
            board.legal_moves(moves);
            if (moves.empty()) break;
            std::size_t rare = 0;
            for (std::size_t i = 0; i < moves.size(); ++i)
                if (is_rare(moves[i])) moves[rare++] = moves[i];
            Move move = rare > 0 && random() % 4 != 0 ? moves[random() % rare]
                                                      : moves[random() % moves.size()];
            bool white = board.side_to_move() == Color::White;
            std::cout << "fen " << board.fen() << "\nmove " << board.to_uci(move) << "\nscore "
                      << random_score(random) << "\nply " << ply << "\nresult "
                      << (white ? result : -result) << "\ne\n";
            board.play(move);
        }
    }
}
