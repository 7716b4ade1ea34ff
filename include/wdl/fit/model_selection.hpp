#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"

// Which model form the data support (scoreWDL --selectModel, docs/model.md): every form is
// fitted on the same folds of game groups and scored on the held-out ones.
namespace wdl::fit {

// The forms of p_a and p_b, "poly3/poly3" (Stockfish's) or e.g. "poly2/rational1".
struct FormPair {
    model::CurveForm a, b;
    int parameter_count() const { return a.parameter_count() + b.parameter_count(); }
    friend bool operator==(const FormPair&, const FormPair&) = default;
};

std::string form_pair_name(const FormPair& forms);
std::optional<FormPair> form_pair_from_name(std::string_view name);

// The default grid: every pair of polynomials of degree 1 to 5 (25 forms, Stockfish's among
// them) and the rational forms of degree 1 and 2 paired with each other and with the cubic
// (8 more).
std::vector<FormPair> default_selection_forms();

struct FormScore {
    FormPair forms;
    std::string failure;    // why the form has no score (its fit or a fold's did not converge)
    model::WdlModel model;  // fitted on all the data
    std::optional<FitUncertainty> uncertainty;  // of that fit (Fisher)
    double log_loss = 0, log_loss_error = 0;    // held out, per position
    double brier = 0, brier_error = 0;
    double calibration_error = 0;  // mean |predicted - observed| win rate over the bins
    // Held-out log-loss minus the best form's and the cubic's, paired position by position.
    double versus_best = 0, versus_best_error = 0;
    std::optional<double> versus_cubic, versus_cubic_error;
    // Held-out log-loss summed per group, and the group's positions: any other paired
    // difference (stats::grouped_mean of the differences).
    std::vector<double> group_log_loss, group_positions;
    bool scored() const { return failure.empty(); }
};

struct ModelSelection {
    int folds = 0, groups = 0;
    counts::Grouping grouping;
    double positions = 0;              // held-out positions scored per form
    std::vector<FormScore> forms;      // as given
    std::size_t best = 0;              // the lowest held-out log-loss
    std::size_t chosen = 0;            // by the rule: the simplest within one standard error
    std::optional<std::size_t> cubic;  // Stockfish's form, if it was among the forms
};

// Fits every form on all the data and, for each of `validation.folds` folds of the groups (as
// cross_validate deals them), on the others, and scores the held-out positions. The chosen
// form: the fewest parameters among the forms whose held-out log-loss exceeds the best's by at
// most one standard error of their paired difference (ties: the lower log-loss). Throws
// wdl::Error when fewer than 2 groups hold positions or no form could be scored.
// `included` (one flag per group, empty for all) restricts everything to a subsample of the
// groups: the others are neither fitted nor scored.
ModelSelection select_model(const GroupedData& data, const FitOptions& options,
                            const std::vector<FormPair>& forms, const counts::Grouping& grouping,
                            const CrossValidationOptions& validation,
                            const std::vector<char>& included = {});

// "How much data does a richer form need?": the selection repeated on growing subsamples of
// the groups (the first fraction of them in the file's order, which the scanner fills by a hash
// of the game or test: a random subsample), each with the same folds.
struct LearningPoint {
    double fraction = 1;
    ModelSelection selection;
};
inline constexpr double kLearningFractions[] = {0.125, 0.25, 0.5, 1.0};
std::vector<LearningPoint> learning_curve(const GroupedData& data, const FitOptions& options,
                                          const std::vector<FormPair>& forms,
                                          const counts::Grouping& grouping,
                                          const CrossValidationOptions& validation);
// One row per subsample: its groups and positions, the best and the chosen form, and how much
// better the best form predicts than the cubic (held-out log-loss, paired, with its error).
std::string learning_curve_report(const std::vector<LearningPoint>& curve);
nlohmann::ordered_json learning_curve_json(const std::vector<LearningPoint>& curve);

// The table (sorted by held-out log-loss), the rule and its choice, and the verdict on the cubic.
std::string model_selection_report(const ModelSelection& selection);
nlohmann::ordered_json model_selection_json(const ModelSelection& selection);

}  // namespace wdl::fit
