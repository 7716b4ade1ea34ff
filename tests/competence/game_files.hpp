#pragma once

// Test helpers: PGN files of short random games from small endgame positions.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../chess/san_helpers.hpp"

namespace competence_test {

namespace fs = std::filesystem;

// A game of up to `plies` random legal moves from `fen`, as PGN with the given result; each
// move carries an engine-style comment.
inline std::string random_game(const std::string& fen, int plies, std::mt19937_64& random,
                               const std::string& white, const std::string& black,
                               const std::string& result) {
    wdl::chess::Board board;
    board.set_fen(fen);
    std::string text = "[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result +
                       "\"]\n[FEN \"" + fen + "\"]\n[SetUp \"1\"]\n\n";
    for (int ply = 0; ply < plies; ++ply) {
        wdl::chess::MoveList moves;
        board.legal_moves(moves);
        if (moves.empty()) break;
        auto move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random)];
        text += chess_test::write_san(board, move) + " {+0.50/10 0.01s} ";
        board.play(move);
    }
    return text + result + "\n\n";
}

inline fs::path write_file(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
}

// Files of random games from KRK, KQK and KPK positions between two engines.
inline std::vector<fs::path> random_game_files(const fs::path& directory, int files,
                                               int games_per_file) {
    static const char* starts[] = {"8/8/8/3k4/8/8/2R5/K7 w - - 0 1",
                                   "8/8/8/3k4/8/8/2Q5/K7 b - - 0 1",
                                   "8/8/4k3/8/4K3/4P3/8/8 w - - 0 1"};
    static const char* results[] = {"1-0", "1/2-1/2", "0-1"};
    std::mt19937_64 random(16);
    std::vector<fs::path> paths;
    for (int f = 0; f < files; ++f) {
        std::string text;
        for (int g = 0; g < games_per_file; ++g)
            text += random_game(starts[(f + g) % 3], 30, random, g % 2 ? "New" : "Base",
                                g % 2 ? "Base" : "New", results[g % 3]);
        paths.push_back(write_file(directory / ("games" + std::to_string(f) + ".pgn"), text));
    }
    return paths;
}

}  // namespace competence_test
