#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>

#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/wdl_math.hpp"
#include "wdl/model/wdl_model.hpp"

// The objectives minimized by the optimize modes, on aggregated counts (one term per
// (mom, eval, outcome) cell), with exact derivatives.
namespace wdl::fit {

// Probabilities below this count as this (the original's guard against log(0)).
inline constexpr double kMinProbability = 1e-14;

// -log(max(p, kMinProbability)): the Probability objective's loss of an outcome predicted
// with probability p.
inline double outcome_log_loss(double p) { return -std::log(std::max(p, kMinProbability)); }

enum class Objective {
    // -(1/N) sum count * log(max(P(outcome), 1e-14))
    Probability,
    // sqrt((1/N) sum count * (score(x) - s)^2)
    Score,
};

// Sum over cells of count * loss at one (a, b), with its first and second partial
// derivatives. For Score the loss is the squared error (the square root is taken on the mean,
// see report_value).
struct LossSum {
    double value = 0, d_a = 0, d_b = 0;
    double d_aa = 0, d_ab = 0, d_bb = 0;
};

LossSum loss_sum(Objective objective, std::span<const Cell> cells, double a, double b);

// The objective as the original reports it, from the loss sum over N positions.
double report_value(Objective objective, double loss_sum, double total_count);

// The objective of the full model (its curves at mom / momTarget, unclamped, in the data's
// units) over all moms, as reported; +infinity where a curve is not defined.
double model_objective(Objective objective, std::span<const MomData> moms,
                       const model::WdlModel& model);

}  // namespace wdl::fit
