#include "wdl/fit/objective.hpp"

#include <algorithm>
#include <cmath>

namespace wdl::fit {

namespace {

// Probabilities below this count as this (the original's guard against log(0)).
constexpr double kMinProbability = 1e-14;

// Win and loss rates at one eval with their derivatives with respect to a and b.
struct Rates {
    double w, w_a, w_b;
    double l, l_a, l_b;
};

Rates rates_at(double x, double a, double b) {
    double spread = model::effective_spread(b);
    // A clamped spread does not depend on b.
    double spread_slope = b < model::kMinSpread ? 0.0 : 1.0;
    double z_win = (x - a) / spread;
    double z_loss = (-x - a) / spread;
    double w = model::logistic(z_win);
    double l = model::logistic(z_loss);
    double w_slope = w * (1.0 - w) / spread;
    double l_slope = l * (1.0 - l) / spread;
    return {w, -w_slope, -w_slope * z_win * spread_slope,
            l, -l_slope, -l_slope * z_loss * spread_slope};
}

// count * -log(max(p, floor)) and its derivative factor: d(-log p) = -dp / p above the floor.
void add_log_term(LossSum& sum, double count, double p, double p_a, double p_b) {
    if (count == 0) return;
    if (p <= kMinProbability) {
        sum.value -= count * std::log(kMinProbability);
        return;
    }
    sum.value -= count * std::log(p);
    sum.d_a -= count * p_a / p;
    sum.d_b -= count * p_b / p;
}

void add_probability_terms(LossSum& sum, const Cell& cell, const Rates& r) {
    add_log_term(sum, cell.wins, r.w, r.w_a, r.w_b);
    add_log_term(sum, cell.draws, 1.0 - r.w - r.l, -r.w_a - r.l_a, -r.w_b - r.l_b);
    add_log_term(sum, cell.losses, r.l, r.l_a, r.l_b);
}

void add_score_terms(LossSum& sum, const Cell& cell, const Rates& r) {
    double score = r.w + 0.5 * (1.0 - r.w - r.l);
    double win_error = score - 1.0, draw_error = score - 0.5, loss_error = score;
    sum.value += cell.wins * win_error * win_error + cell.draws * draw_error * draw_error +
                 cell.losses * loss_error * loss_error;
    double error_slope =
        2.0 * (cell.wins * win_error + cell.draws * draw_error + cell.losses * loss_error);
    sum.d_a += error_slope * 0.5 * (r.w_a - r.l_a);
    sum.d_b += error_slope * 0.5 * (r.w_b - r.l_b);
}

}  // namespace

LossSum loss_sum(Objective objective, std::span<const Cell> cells, double a, double b) {
    LossSum sum;
    for (const Cell& cell : cells) {
        Rates r = rates_at(cell.eval, a, b);
        if (objective == Objective::Probability) {
            add_probability_terms(sum, cell, r);
        } else {
            add_score_terms(sum, cell, r);
        }
    }
    return sum;
}

double report_value(Objective objective, double loss_sum, double total_count) {
    double mean = loss_sum / total_count;
    return objective == Objective::Score ? std::sqrt(mean) : mean;
}

double model_objective(Objective objective, std::span<const MomData> moms, int mom_target,
                       const model::Poly3& as, const model::Poly3& bs) {
    double sum = 0, total = 0;
    for (const MomData& mom : moms) {
        double t = double(mom.mom) / mom_target;
        sum += loss_sum(objective, mom.cells, model::poly3(as, t), model::poly3(bs, t)).value;
        total += mom.total;
    }
    return report_value(objective, sum, total);
}

}  // namespace wdl::fit
