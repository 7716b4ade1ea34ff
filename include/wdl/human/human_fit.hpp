#pragma once

#include <string>
#include <vector>

#include "wdl/fit/resampling.hpp"
#include "wdl/human/human_data.hpp"
#include "wdl/human/human_model.hpp"

// The rating-aware model fitted by maximum likelihood (docs/human-games.md): Newton's method with
// exact derivatives, the optimum verified (gradient and curvature), error bars from whole games
// by the delete-one-group jackknife, and the choice of form by held-out log-loss.
namespace wdl::human {

// A weight per group (0 leaves a group out); empty weighs every group 1.
using GroupWeights = std::vector<double>;

// The negative log-likelihood summed over the weighted cells, with its gradient and Hessian in
// the parameters (exact, when `derivatives`); +infinity where the model gives an observed
// outcome no probability (a or b not positive at a unit with positions).
struct LossDerivatives {
    double value = 0;
    double positions = 0;
    std::vector<double> gradient;              // parameter_count
    std::vector<std::vector<double>> hessian;  // parameter_count squared
};
LossDerivatives human_loss(const HumanData& data, const HumanModel& model,
                           const GroupWeights& weights = {}, bool derivatives = true);

struct HumanFit {
    HumanModel model;
    double loss = 0;  // summed
    double positions = 0;
    bool converged = false;
    int iterations = 0;
    // At the optimum: the largest gradient component per position, and whether the Hessian is
    // positive definite (a minimum, not a saddle); the Fisher covariance (positions taken as
    // independent) is its inverse.
    double gradient_per_position = 0;
    bool positive_curvature = false;
    std::vector<std::vector<double>> fisher_covariance;
    std::string failure;  // why it did not converge
};

// A converged fit stops where the Newton step is below 1e-9 in every parameter; its gradient
// per position must then be below this.
inline constexpr double kMaxGradientPerPosition = 1e-7;

// Fits `form` from `start` (else a = 1 pawn, b = 1 pawn, the rest 0) on the weighted groups.
HumanFit fit_human_model(const HumanData& data, HumanForm form, const GroupWeights& weights = {},
                         const HumanModel* start = nullptr);

// The parameters' delete-one-group jackknife (docs/model.md, "Uncertainty": the failed
// replicate rule of fit::failed_replicates_refusal applies).
struct HumanUncertainty {
    int groups = 0;      // with positions: the replicates attempted
    int replicates = 0;  // that converged
    std::vector<std::string> failures;
    std::string no_interval;                        // why there are no estimates
    std::vector<fit::ResampledEstimate> estimates;  // per parameter, in the model's order
    std::vector<std::vector<double>> covariance;    // (G - 1) / G sum of replicates' products
};
HumanUncertainty jackknife_human(const HumanData& data, const HumanFit& fit, int threads,
                                 double confidence = 0.95);

// A form's held-out score: each fold's groups predicted by the fit on the other folds.
struct HumanFormScore {
    HumanForm form = HumanForm::Flat;
    std::string failure;                            // a fold's fit that did not converge
    double log_loss = 0, log_loss_error = 0;        // per position, errors over groups
    double versus_best = 0, versus_best_error = 0;  // paired by group
    std::vector<double> group_log_loss, group_positions;
    bool scored() const { return failure.empty(); }
};

struct HumanSelection {
    int folds = 0, groups = 0;
    double positions = 0;
    std::vector<HumanFormScore> forms;
    std::size_t best = 0;    // the lowest held-out log-loss
    std::size_t chosen = 0;  // the fewest parameters within one standard error of the best
};

// Every form fitted on all folds but one and scored on that one, for each of `folds` folds of
// the groups (fit::fold_of). Throws wdl::Error with fewer than 2 groups holding positions or no
// form scored.
HumanSelection select_human_form(const HumanData& data, const std::vector<HumanForm>& forms,
                                 int folds, int threads);

// Weights that keep the groups of fold `fold` (or leave them out, when `keep` is false).
GroupWeights fold_weights(int groups, int folds, int fold, bool keep);

}  // namespace wdl::human
