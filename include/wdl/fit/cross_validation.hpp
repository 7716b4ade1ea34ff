#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/calibration.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/model/normalization.hpp"

// Held-out validation by groups (scoreWDL --crossValidate, docs/model.md): the groups are dealt
// into K folds; each fold's positions are scored by models fitted without that fold.
namespace wdl::fit {

// How well one model predicts the held-out positions: means over all positions of every fold,
// each with a standard error that takes the groups as independent units.
struct ModelValidation {
    std::string name;                             // "fitted", "NormalizeData", "baseline"
    std::string description;                      // for the printed table
    double log_loss = 0, log_loss_error = 0;      // -log P(outcome), floored as the objective
    double brier = 0, brier_error = 0;            // sum over W, D, L of (p - observed)^2
    double score_rmse = 0, score_rmse_error = 0;  // of the expected score W + D / 2
    // This model's log-loss minus the fitted model's, paired position by position.
    double log_loss_difference = 0, log_loss_difference_error = 0;
    std::vector<CalibrationBin> by_predicted_win, by_material;
};

struct CrossValidation {
    int folds = 0;
    counts::Grouping grouping;
    int groups = 0;
    double positions = 0;               // scored positions
    std::vector<std::string> failures;  // folds left out: their fit did not converge
    // The baseline's scale in cp (expected score 1 / (1 + exp(-cp / scale))), per fold.
    std::vector<double> baseline_scales;
    std::vector<ModelValidation> models;  // fitted, NormalizeData (if complete), baseline
};

struct CrossValidationOptions {
    int folds = 10;
    int threads = 1;
};

// Cross-validates the fit of the data's total. The models: the method's fit on the other
// folds; the model of the normalization if it has bs (its mom clamped as Stockfish does); the
// baseline, an expected score 1 / (1 + exp(-cp / scale)) from the displayed cp alone (lichess'
// form) with the scale fitted by maximum likelihood on the other folds, whose W, D, L split the
// expected score s as two independent half-points: W = s^2, D = 2 s (1 - s), L = (1 - s)^2.
// Throws wdl::Error when fewer than 2 groups retained positions or no fold could be fitted.
CrossValidation cross_validate(const GroupedData& data, const FitResult& fit,
                               const FitOptions& options, const model::Normalization& normalization,
                               const counts::Grouping& grouping,
                               const CrossValidationOptions& validation);

}  // namespace wdl::fit
