#pragma once

#include <array>
#include <vector>

#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/wdl_model.hpp"

// The strength-and-asymmetry model of a pairing (scaleWDL, docs/comparison.md): each engine's
// symmetric model, held fixed, with a scale of its evals per side and one strength term shared
// by the two engines with opposite signs. A stronger engine wins more than its evals say at
// every eval, which its positions ahead read as a steeper curve and those behind as a flatter
// one: fitted together, the strength term takes that and the scales keep the evals' own
// asymmetry.
namespace wdl::scale {

// The parameters: log s_ahead and log s_behind of New, of Base, delta (New's; Base's is -delta),
// and log c of New's and of Base's spread. For an engine's own position at eval x (its view)
// with k = 1/s of x's side and B = c b,
//   P(win) = logistic((k x - a) / B + d),  P(loss) = logistic((-k x - a) / B - d),
// d = +delta for New and -delta for Base. The spread factor is there because the symmetric fit
// that gives a and b pools an engine's wins at +x (shifted by +d) with its losses at -x
// (shifted by -d): that mixture reads as a wider spread, which with d fitted back is too wide
// and would bias the scales per side (by 8 % at 60 Elo without it).
enum StrengthParameter {
    kNewAhead,
    kNewBehind,
    kBaseAhead,
    kBaseBehind,
    kDelta,
    kNewSpread,
    kBaseSpread
};
using StrengthParameters = std::array<double, 7>;

struct StrengthFit {
    StrengthParameters parameters{};
    double loss = 0;  // the log-loss summed over both engines' positions
    bool converged = false;
};

// Maximum likelihood by Newton's method with exact derivatives over the count cells, from
// `start`; the scales of an engine whose `per_side` is false stay 1 (both false: the model with
// strength alone, delta and the spread factors). `moms` and
// `models` by games::Role.
StrengthFit fit_strength_model(const std::array<std::vector<fit::MomData>, 2>& moms,
                               const std::array<const model::WdlModel*, 2>& models,
                               std::array<bool, 2> per_side, const StrengthParameters& start = {});

// One engine's positions' log-loss summed under the model with these parameters.
double strength_log_loss(const std::vector<fit::MomData>& moms, const model::WdlModel& model,
                         int role, const StrengthParameters& parameters);

// The Elo difference whose expected score is New's at eval 0 in `model` (a and b at its target
// mom, b times `spread_factor`) with the strength term `delta`: 400 log10(S / (1 - S)),
// S = (1 + logistic(-a/b + delta) - logistic(-a/b - delta)) / 2.
double strength_elo(double delta, const model::WdlModel& model, double spread_factor = 1);

}  // namespace wdl::scale
