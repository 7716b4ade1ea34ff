#include "wdl/fit/objective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wdl::fit {

namespace {

// A logistic rate r = logistic(z), z = (x - a) / b, with its first and second derivatives
// with respect to a and b.
struct Rate {
    double r, r_a, r_b, r_aa, r_ab, r_bb;
};

// With slope = r (1 - r) and its derivative in z, curvature = slope (1 - 2r), and
// dz/da = -1/b, dz/db = -z/b. A clamped spread does not depend on b.
Rate rate_at(double z, double spread, bool spread_varies) {
    double r = model::logistic(z);
    double slope = r * (1.0 - r);
    double curvature = slope * (1.0 - 2.0 * r);
    double b2 = spread * spread;
    Rate rate{r, -slope / spread, 0.0, curvature / b2, 0.0, 0.0};
    if (spread_varies) {
        rate.r_b = -slope * z / spread;
        rate.r_ab = (curvature * z + slope) / b2;
        rate.r_bb = (curvature * z * z + 2.0 * slope * z) / b2;
    }
    return rate;
}

// Win and loss rates at one eval.
struct Rates {
    Rate w, l;
};

Rates rates_at(double x, double a, double b) {
    double spread = model::effective_spread(b);
    bool spread_varies = b >= model::kMinSpread;
    return {rate_at((x - a) / spread, spread, spread_varies),
            rate_at((-x - a) / spread, spread, spread_varies)};
}

// count * -log(max(p, floor)) with its derivatives: d(-log p) = -dp / p and
// d2(-log p) = -d2p / p + dp dp / p^2 above the floor, zero below it.
void add_log_term(LossSum& sum, double count, const Rate& p) {
    if (count == 0) return;
    if (p.r <= kMinProbability) {
        sum.value -= count * std::log(kMinProbability);
        return;
    }
    double inverse = 1.0 / p.r;
    double g_a = p.r_a * inverse, g_b = p.r_b * inverse;
    sum.value -= count * std::log(p.r);
    sum.d_a -= count * g_a;
    sum.d_b -= count * g_b;
    sum.d_aa += count * (g_a * g_a - p.r_aa * inverse);
    sum.d_ab += count * (g_a * g_b - p.r_ab * inverse);
    sum.d_bb += count * (g_b * g_b - p.r_bb * inverse);
}

void add_probability_terms(LossSum& sum, const Cell& cell, const Rates& r) {
    const Rate draw{1.0 - r.w.r - r.l.r,  -r.w.r_a - r.l.r_a,   -r.w.r_b - r.l.r_b,
                    -r.w.r_aa - r.l.r_aa, -r.w.r_ab - r.l.r_ab, -r.w.r_bb - r.l.r_bb};
    add_log_term(sum, cell.wins, r.w);
    add_log_term(sum, cell.draws, draw);
    add_log_term(sum, cell.losses, r.l);
}

// The squared errors of score s = (1 + w - l) / 2 against 1, 0.5 and 0: with
// E = sum count (s - target) and N = sum count, d = 2 E ds and d2 = 2 N ds ds + 2 E d2s.
void add_score_terms(LossSum& sum, const Cell& cell, const Rates& r) {
    double score = 0.5 * (1.0 + r.w.r - r.l.r);
    double win_error = score - 1.0, draw_error = score - 0.5, loss_error = score;
    sum.value += cell.wins * win_error * win_error + cell.draws * draw_error * draw_error +
                 cell.losses * loss_error * loss_error;
    double error = cell.wins * win_error + cell.draws * draw_error + cell.losses * loss_error;
    double s_a = 0.5 * (r.w.r_a - r.l.r_a), s_b = 0.5 * (r.w.r_b - r.l.r_b);
    double count = cell.total();
    sum.d_a += 2.0 * error * s_a;
    sum.d_b += 2.0 * error * s_b;
    sum.d_aa += 2.0 * (count * s_a * s_a + error * 0.5 * (r.w.r_aa - r.l.r_aa));
    sum.d_ab += 2.0 * (count * s_a * s_b + error * 0.5 * (r.w.r_ab - r.l.r_ab));
    sum.d_bb += 2.0 * (count * s_b * s_b + error * 0.5 * (r.w.r_bb - r.l.r_bb));
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

double model_objective(Objective objective, std::span<const MomData> moms,
                       const model::WdlModel& model) {
    double sum = 0, total = 0;
    for (const MomData& mom : moms) {
        double t = double(mom.mom) / model.mom_target;
        if (!model::curve_defined_at(model.a_form, model.as, t) ||
            !model::curve_defined_at(model.b_form, model.bs, t))
            return std::numeric_limits<double>::infinity();
        sum += loss_sum(objective, mom.cells, model::curve_value(model.a_form, model.as, t),
                        model::curve_value(model.b_form, model.bs, t))
                   .value;
        total += mom.total;
    }
    return report_value(objective, sum, total);
}

}  // namespace wdl::fit
