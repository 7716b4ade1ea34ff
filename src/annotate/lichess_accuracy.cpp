#include "wdl/annotate/lichess_accuracy.hpp"

#include <algorithm>
#include <cmath>

namespace wdl::annotate {
namespace {

// Population standard deviation, as lila's Maths.standardDeviation.
double standard_deviation(const std::vector<double>& values, std::size_t begin, std::size_t end) {
    double mean = 0;
    for (std::size_t i = begin; i < end; ++i) mean += values[i];
    mean /= double(end - begin);
    double squares = 0;
    for (std::size_t i = begin; i < end; ++i) squares += (values[i] - mean) * (values[i] - mean);
    return std::sqrt(squares / double(end - begin));
}

// lila's colorAccuracy: sums of one side's weighted accuracies and of the harmonic mean's terms.
struct SideSums {
    double weighted = 0, weights = 0, reciprocals = 0;
};

}  // namespace

double lichess_win_percent(int cp) {
    double clamped = std::clamp(cp, -kLichessCpCeiling, kLichessCpCeiling);
    double chances = 2 / (1 + std::exp(-0.00368208 * clamped)) - 1;
    return 50 + 50 * std::clamp(chances, -1.0, 1.0);
}

double lichess_move_accuracy(double before, double after) {
    if (after >= before) return 100;
    double raw =
        103.1668100711649 * std::exp(-0.04354415386753951 * (before - after)) + -3.166924740191411;
    return std::clamp(raw + 1, 0.0, 100.0);
}

LichessGame lichess_game_accuracy(const std::vector<int>& white_cp_after_ply,
                                  bool white_moves_first) {
    std::vector<double> win{lichess_win_percent(kLichessInitialCp)};
    for (int cp : white_cp_after_ply) win.push_back(lichess_win_percent(cp));
    std::size_t plies = white_cp_after_ply.size();
    std::size_t window = std::clamp<std::size_t>(plies / 10, 2, 8);
    // The windows of lila: (min(window, |win|) - 2) copies of the first one, then every
    // window of consecutive values (one of all values if there are fewer than a window).
    std::vector<std::pair<std::size_t, std::size_t>> windows;
    std::size_t first_end = std::min(window, win.size());
    for (std::size_t i = 0; i + 2 < first_end; ++i) windows.emplace_back(0, first_end);
    if (win.size() <= window) {
        windows.emplace_back(0, win.size());
    } else {
        for (std::size_t start = 0; start + window <= win.size(); ++start)
            windows.emplace_back(start, start + window);
    }
    LichessGame game;
    SideSums white_sums, black_sums;
    for (std::size_t i = 0; i < plies && i < windows.size(); ++i) {
        double weight =
            std::clamp(standard_deviation(win, windows[i].first, windows[i].second), 0.5, 12.0);
        bool white = (i % 2 == 0) == white_moves_first;
        // Black's accuracy is White's Win% read the other way round, as lila's color.fold.
        double accuracy = white ? lichess_move_accuracy(win[i], win[i + 1])
                                : lichess_move_accuracy(win[i + 1], win[i]);
        LichessSide& side = white ? game.white : game.black;
        SideSums& sums = white ? white_sums : black_sums;
        ++side.moves;
        side.move_accuracy_sum += accuracy;
        sums.weighted += accuracy * weight;
        sums.weights += weight;
        sums.reciprocals += 1 / std::max(1.0, accuracy);
    }
    for (auto [side, sums] :
         {std::pair{&game.white, &white_sums}, std::pair{&game.black, &black_sums}}) {
        if (side->moves == 0) continue;
        double harmonic = double(side->moves) / sums->reciprocals;
        side->game_accuracy = (sums->weighted / sums->weights + harmonic) / 2;
    }
    return game;
}

}  // namespace wdl::annotate
