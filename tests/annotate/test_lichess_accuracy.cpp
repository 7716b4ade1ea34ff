// lichess's measures against its published formulas (https://lichess.org/page/accuracy and
// lila's WinPercent.scala, AccuracyPercent.scala), computed here afresh from the formulas.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "wdl/annotate/lichess_accuracy.hpp"

using namespace wdl::annotate;

namespace {

double win_percent(double cp) { return 50 + 50 * (2 / (1 + std::exp(-0.00368208 * cp)) - 1); }

double move_accuracy(double drop) {
    if (drop <= 0) return 100;
    double value = 103.1668100711649 * std::exp(-0.04354415386753951 * drop) - 3.166924740191411;
    return std::min(100.0, std::max(0.0, value + 1));
}

// A side's game accuracy from its move accuracies and weights.
double game_accuracy(const std::vector<double>& accuracies, const std::vector<double>& weights) {
    double weighted = 0, weight_sum = 0, reciprocals = 0;
    for (std::size_t i = 0; i < accuracies.size(); ++i) {
        weighted += accuracies[i] * weights[i];
        weight_sum += weights[i];
        reciprocals += 1 / std::max(1.0, accuracies[i]);
    }
    return (weighted / weight_sum + double(accuracies.size()) / reciprocals) / 2;
}

}  // namespace

TEST_CASE("lichess's Win% and move accuracy follow its formulas", "[annotate][lichess]") {
    CHECK(lichess_win_percent(0) == Approx(50));
    CHECK(lichess_win_percent(100) == Approx(win_percent(100)));
    CHECK(lichess_win_percent(-350) == Approx(win_percent(-350)));
    CHECK(lichess_win_percent(100) == Approx(59.1).margin(0.05));  // the page's +1.00
    // Clamped to +-1000 centipawns: a mate (1001 and beyond) counts as 1000.
    CHECK(lichess_win_percent(2500) == Approx(win_percent(1000)));
    CHECK(lichess_win_percent(-1005) == Approx(win_percent(-1000)));
    CHECK(lichess_move_accuracy(60, 60) == 100);
    CHECK(lichess_move_accuracy(40, 70) == 100);
    CHECK(lichess_move_accuracy(70, 60) == Approx(move_accuracy(10)));
    CHECK(lichess_move_accuracy(55, 53.5) == Approx(move_accuracy(1.5)));
    CHECK(lichess_move_accuracy(100, 0) == 0);
    // A tiny drop keeps the uncertainty bonus within 100.
    CHECK(lichess_move_accuracy(50, 49.99) == 100);
}

TEST_CASE("lichess's game accuracy of a 4-ply game, by hand", "[annotate][lichess]") {
    // White's evals after each ply; 4 plies make windows of 2 Win% values, whose population
    // standard deviation is half their difference.
    std::vector<int> cps{30, 10, -50, -40};
    std::vector<double> win{win_percent(15)};
    for (int cp : cps) win.push_back(win_percent(cp));
    std::vector<double> white, black, white_weights, black_weights;
    for (std::size_t i = 0; i < 4; ++i) {
        double weight = std::min(12.0, std::max(0.5, std::abs(win[i + 1] - win[i]) / 2));
        if (i % 2 == 0) {
            white.push_back(move_accuracy(win[i] - win[i + 1]));
            white_weights.push_back(weight);
        } else {
            black.push_back(move_accuracy(win[i + 1] - win[i]));
            black_weights.push_back(weight);
        }
    }
    auto game = lichess_game_accuracy(cps, true);
    CHECK(game.white.moves == 2);
    CHECK(game.black.moves == 2);
    CHECK(game.white.move_accuracy_sum == Approx(white[0] + white[1]));
    CHECK(game.black.move_accuracy_sum == Approx(black[0] + black[1]));
    REQUIRE(game.white.game_accuracy);
    REQUIRE(game.black.game_accuracy);
    CHECK(*game.white.game_accuracy == Approx(game_accuracy(white, white_weights)));
    CHECK(*game.black.game_accuracy == Approx(game_accuracy(black, black_weights)));
    // Black moving first makes plies 0 and 2 Black's: a rise of White's Win% is Black's drop.
    auto swapped = lichess_game_accuracy(cps, false);
    CHECK(swapped.black.move_accuracy_sum ==
          Approx(move_accuracy(win[1] - win[0]) + move_accuracy(win[3] - win[2])));
}

TEST_CASE("lichess's windows: the first moves share the first window, then it slides",
          "[annotate][lichess]") {
    // 35 plies: windows of clamp(35 / 10, 2, 8) = 3 Win% values. Move i's window ends with the
    // Win% after it ([i - 1, i + 2) of the list that starts with the initial Win%), except
    // move 0's, which is the first window [0, 3).
    std::vector<int> cps;
    for (int i = 0; i < 35; ++i) cps.push_back(int(400 * std::sin(i * 0.7)) - i * 5);
    std::vector<double> win{win_percent(15)};
    for (int cp : cps) win.push_back(win_percent(cp));
    std::vector<double> white, weights;
    for (std::size_t i = 0; i < cps.size(); i += 2) {
        std::size_t begin = i == 0 ? 0 : i - 1;
        double mean = (win[begin] + win[begin + 1] + win[begin + 2]) / 3, squares = 0;
        for (std::size_t k = begin; k < begin + 3; ++k)
            squares += (win[k] - mean) * (win[k] - mean);
        weights.push_back(std::min(12.0, std::max(0.5, std::sqrt(squares / 3))));
        white.push_back(move_accuracy(win[i] - win[i + 1]));
    }
    auto game = lichess_game_accuracy(cps, true);
    CHECK(game.white.moves == 18);
    CHECK(game.black.moves == 17);
    REQUIRE(game.white.game_accuracy);
    CHECK(*game.white.game_accuracy == Approx(game_accuracy(white, weights)));
    CHECK_FALSE(lichess_game_accuracy({}, true).white.game_accuracy);
}
