#include "wdl/human/baselines.hpp"

#include <algorithm>
#include <cmath>

#include "wdl/annotate/lichess_accuracy.hpp"
#include "wdl/model/wdl_math.hpp"

namespace wdl::human {

double lichess_expected_score(double cp) {
    return annotate::lichess_win_percent(int(std::lround(cp))) / 100;
}

std::array<double, 3> lichess_wdl(double cp, double draw_rate) {
    const double score = lichess_expected_score(cp);
    const double draw = std::min(draw_rate, 2 * std::min(score, 1 - score));
    return {score - draw / 2, draw, 1 - score - draw / 2};
}

double lc0_game_pair_elo(double elo) {
    constexpr double kSharpness = 250, kMidpoint = 2737;
    return elo + 0.5 * kSharpness * std::log1p(std::exp((kMidpoint - elo) / kSharpness));
}

namespace {
constexpr double kScaleZero = 15, kEloSlope = 425, kOffset = 6.75;
}

double lc0_sharpness(double elo) {
    return 1 / (1 / kScaleZero + std::exp(lc0_game_pair_elo(elo) / kEloSlope - kOffset));
}

double lc0_mu_offset(double elo) {
    return -std::log(10.0) / 200 * kScaleZero * kEloSlope *
           std::log1p(std::exp(-lc0_game_pair_elo(elo) / kEloSlope + kOffset) / kScaleZero);
}

std::array<double, 3> lc0_wdl(double cp, double rating, double opponent_rating) {
    const double own = lc0_sharpness(rating), other = lc0_sharpness(opponent_rating);
    const double s = std::sqrt((own * own + other * other) / 2);
    const double mu = cp / 100 + lc0_mu_offset(rating) - lc0_mu_offset(opponent_rating);
    const double win = model::logistic((mu - 1) / s), loss = model::logistic((-mu - 1) / s);
    return {win, 1 - win - loss, loss};
}

std::array<double, 3> stockfish_wdl(const model::WdlModel& model, double cp, double material) {
    const double eval = model.from_cp(cp, material);
    const double win = model.win(eval, material), loss = model.loss(eval, material);
    return {win, 1 - win - loss, loss};
}

}  // namespace wdl::human
