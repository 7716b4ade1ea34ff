#pragma once

#include <cstddef>
#include <optional>
#include <vector>

// The accuracy measures lichess shows, by its published formulas
// (https://lichess.org/page/accuracy) as its server computes them (lichess-org/lila,
// modules/analyse/src/main/WinPercent.scala and AccuracyPercent.scala;
// modules/common/src/main/Maths.scala for the means): Win% of an eval, the accuracy of a move from
// the Win% before and after it, and a player's accuracy in a game. They take centipawns as
// lichess's Stockfish displays them, whatever the engine that played.
namespace wdl::annotate {

// lichess clamps centipawns to +-1000 (Eval.Cp.CEILING; a mate counts as the ceiling) and takes
// the position before the first move as +0.15 (Eval.Cp.initial).
inline constexpr int kLichessCpCeiling = 1000;
inline constexpr int kLichessInitialCp = 15;

// Win% in [0, 100] of the side whose eval `cp` is: 50 + 50 (2 / (1 + exp(-0.00368208 cp)) - 1),
// cp clamped to the ceiling.
double lichess_win_percent(int cp);

// The accuracy in [0, 100] of a move that took its mover's Win% from `before` to `after`: 100 if
// it did not drop, else 103.1668 exp(-0.04354 (before - after)) - 3.1669 plus lichess's
// "uncertainty bonus" of 1, clamped to [0, 100] (the constants in lila's full precision).
double lichess_move_accuracy(double before, double after);

// One side's moves of a game as lichess judges them.
struct LichessSide {
    std::size_t moves = 0;
    double move_accuracy_sum = 0;
    // The mean of the volatility-weighted mean and the harmonic mean of the move accuracies;
    // nothing without a move.
    std::optional<double> game_accuracy;
};

struct LichessGame {
    LichessSide white, black;
};

// Both sides' accuracies in a game from White's eval in centipawns after each ply, the first ply
// White's or Black's. As lila's gameAccuracy: the Win% list starts at the initial eval; each
// move's weight is the population standard deviation of Win% over a window of
// clamp(plies / 10, 2, 8) Win% values (the first moves share the first window, then it slides),
// clamped to [0.5, 12]; the harmonic mean takes each accuracy as at least 1.
LichessGame lichess_game_accuracy(const std::vector<int>& white_cp_after_ply,
                                  bool white_moves_first);

}  // namespace wdl::annotate
