#include "wdl/scale/strength_model.hpp"

#include <algorithm>
#include <cmath>

#include "wdl/fit/objective.hpp"
#include "wdl/model/curve.hpp"
#include "wdl/model/wdl_math.hpp"

namespace wdl::scale {
namespace {

using Matrix = std::array<std::array<double, 7>, 7>;

struct Sums {
    double value = 0;
    StrengthParameters gradient{};
    Matrix hessian{};
};

// count * -log(max(p, floor)) added with its derivatives in the logits (zw, zl), from p's; below
// the floor the loss is constant, as the project's log-loss is.
void add_term(double count, double p, const std::array<double, 2>& p1,
              const std::array<std::array<double, 2>, 2>& p2, double& value,
              std::array<double, 2>& g, std::array<std::array<double, 2>, 2>& h) {
    if (count == 0) return;
    if (p <= fit::kMinProbability) {
        value -= count * std::log(fit::kMinProbability);
        return;
    }
    value -= count * std::log(p);
    for (std::size_t i = 0; i < 2; ++i) {
        g[i] -= count * p1[i] / p;
        for (std::size_t j = 0; j < 2; ++j)
            h[i][j] += count * (p1[i] * p1[j] / (p * p) - p2[i][j] / p);
    }
}

// One engine's positions added to the sums.
void accumulate(const std::vector<fit::MomData>& moms, const model::WdlModel& model, int role,
                const StrengthParameters& theta, Sums& sums) {
    const double sign = role == 0 ? 1 : -1;
    const int ahead = role == 0 ? kNewAhead : kBaseAhead;
    const int spread = role == 0 ? kNewSpread : kBaseSpread;
    const double delta = sign * theta[kDelta], factor = std::exp(theta[std::size_t(spread)]);
    for (const auto& mom : moms) {
        double t = double(mom.mom) / model.mom_target;
        double a = model::curve_value(model.a_form, model.as, t);
        double b = factor * model::effective_spread(model::curve_value(model.b_form, model.bs, t));
        for (const auto& cell : mom.cells) {
            // Evals of exactly 0 carry no scale: only the strength term moves them.
            int side = cell.eval >= 0 ? ahead : ahead + 1;
            double e = std::exp(-theta[std::size_t(side)]) * cell.eval;
            double zw = (e - a) / b + delta, zl = (-e - a) / b - delta;
            double w = model::logistic(zw), l = model::logistic(zl);
            double sw = w * (1 - w), sl = l * (1 - l);
            double cw = sw * (1 - 2 * w), cl = sl * (1 - 2 * l);
            std::array<double, 2> g{};
            std::array<std::array<double, 2>, 2> h{};
            add_term(cell.wins, w, {sw, 0}, {{{cw, 0}, {0, 0}}}, sums.value, g, h);
            add_term(cell.draws, 1 - w - l, {-sw, -sl}, {{{-cw, 0}, {0, -cl}}}, sums.value, g, h);
            add_term(cell.losses, l, {0, sl}, {{{0, 0}, {0, cl}}}, sums.value, g, h);
            // The logits' derivatives in (log s of the side, log c, delta), and their second
            // derivatives (delta enters linearly).
            const std::array<int, 3> index{side, spread, kDelta};
            const std::array<std::array<double, 3>, 2> dz{
                {{-e / b, -(e - a) / b, sign}, {e / b, (e + a) / b, -sign}}};
            const std::array<std::array<double, 2>, 2> d2z_w{
                {{e / b, e / b}, {e / b, (e - a) / b}}};
            const std::array<std::array<double, 2>, 2> d2z_l{
                {{-e / b, -e / b}, {-e / b, -(e + a) / b}}};
            for (std::size_t i = 0; i < 3; ++i) {
                auto& gradient = sums.gradient[std::size_t(index[i])];
                gradient += g[0] * dz[0][i] + g[1] * dz[1][i];
                for (std::size_t j = 0; j < 3; ++j) {
                    double term = 0;
                    for (std::size_t p = 0; p < 2; ++p)
                        for (std::size_t q = 0; q < 2; ++q) term += h[p][q] * dz[p][i] * dz[q][j];
                    if (i < 2 && j < 2) term += g[0] * d2z_w[i][j] + g[1] * d2z_l[i][j];
                    sums.hessian[std::size_t(index[i])][std::size_t(index[j])] += term;
                }
            }
        }
    }
}

Sums sums_of(const std::array<std::vector<fit::MomData>, 2>& moms,
             const std::array<const model::WdlModel*, 2>& models, const StrengthParameters& theta) {
    Sums sums;
    for (int role = 0; role < 2; ++role)
        accumulate(moms[std::size_t(role)], *models[std::size_t(role)], role, theta, sums);
    return sums;
}

// Solves the free parameters' system (H + lambda I) step = -g by Cholesky; false when it is not
// positive definite.
bool solve(const Sums& sums, const std::vector<int>& free, double lambda,
           StrengthParameters& step) {
    const std::size_t n = free.size();
    Matrix l{};
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) {
            double s =
                sums.hessian[std::size_t(free[i])][std::size_t(free[j])] + (i == j ? lambda : 0);
            for (std::size_t k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
            if (i == j) {
                if (!(s > 0)) return false;
                l[i][i] = std::sqrt(s);
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    std::array<double, 7> y{};
    for (std::size_t i = 0; i < n; ++i) {
        double s = -sums.gradient[std::size_t(free[i])];
        for (std::size_t k = 0; k < i; ++k) s -= l[i][k] * y[k];
        y[i] = s / l[i][i];
    }
    step = {};
    for (std::size_t i = n; i-- > 0;) {
        double s = y[i];
        for (std::size_t k = i + 1; k < n; ++k) s -= l[k][i] * step[std::size_t(free[k])];
        step[std::size_t(free[i])] = s / l[i][i];
    }
    return true;
}

}  // namespace

StrengthFit fit_strength_model(const std::array<std::vector<fit::MomData>, 2>& moms,
                               const std::array<const model::WdlModel*, 2>& models,
                               std::array<bool, 2> per_side, const StrengthParameters& start) {
    StrengthFit result;
    StrengthParameters theta = start;
    for (int role = 0; role < 2; ++role)
        if (!per_side[std::size_t(role)])
            theta[std::size_t(2 * role)] = theta[std::size_t(2 * role + 1)] = 0;
    Sums sums = sums_of(moms, models, theta);
    // A side without positions has no curvature: its scale stays where it started.
    std::vector<int> free;
    for (int i = 0; i <= kBaseSpread; ++i)
        if ((i >= kDelta || per_side[std::size_t(i / 2)]) &&
            sums.hessian[std::size_t(i)][std::size_t(i)] != 0)
            free.push_back(i);
    double lambda = 0;
    for (int iteration = 0; iteration < 100 && std::isfinite(sums.value); ++iteration) {
        // Levenberg's damping where the curvature is not positive or a step does not lower the
        // loss; undamped near the optimum, where Newton's steps converge fast.
        StrengthParameters step{};
        bool accepted = false;
        for (int attempt = 0; attempt < 40 && !accepted; ++attempt) {
            if (!solve(sums, free, lambda, step)) {
                lambda = std::max(1e-6, lambda * 10);
                continue;
            }
            double largest = 0;
            for (double s : step) largest = std::max(largest, std::abs(s));
            if (largest < 1e-10) {
                result.parameters = theta;
                result.loss = sums.value;
                result.converged = true;
                return result;
            }
            StrengthParameters trial = theta;
            double shrink = std::min(1.0, 1 / largest);  // no step beyond a factor e at once
            for (int i : free) trial[std::size_t(i)] += shrink * step[std::size_t(i)];
            Sums next = sums_of(moms, models, trial);
            if (std::isfinite(next.value) && next.value <= sums.value) {
                theta = trial;
                sums = next;
                lambda /= 10;
                if (lambda < 1e-9) lambda = 0;
                accepted = true;
            } else {
                lambda = std::max(1e-6, lambda * 10);
            }
        }
        if (!accepted) break;
    }
    result.parameters = theta;
    result.loss = sums.value;
    return result;
}

double strength_log_loss(const std::vector<fit::MomData>& moms, const model::WdlModel& model,
                         int role, const StrengthParameters& parameters) {
    Sums sums;
    accumulate(moms, model, role, parameters, sums);
    return sums.value;
}

double strength_elo(double delta, const model::WdlModel& model, double spread_factor) {
    double a = model::curve_value(model.a_form, model.as, 1);
    double b =
        spread_factor * model::effective_spread(model::curve_value(model.b_form, model.bs, 1));
    double score = (1 + model::logistic(-a / b + delta) - model::logistic(-a / b - delta)) / 2;
    return 400 * std::log10(score / (1 - score));
}

}  // namespace wdl::scale
