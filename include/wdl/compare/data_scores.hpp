#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/counts/count_merge.hpp"
#include "wdl/fit/calibration.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/normalization.hpp"

// Models scored on the same positions (compareWDL --counts, docs/programs.md): which one
// predicts the games better, and by how much beyond noise.
namespace wdl::compare {

struct ModelDataScore {
    std::string name;
    double log_loss = 0, log_loss_error = 0;  // mean -log P(outcome), floored as the fitter's
    double brier = 0, brier_error = 0;        // mean sum over W, D, L of (p - observed)^2
    double score_rmse = 0;                    // of the expected score W + D / 2
    // Paired with the first model, position by position: this model's log-loss minus the
    // first's (negative: this model predicts better).
    double log_loss_difference = 0, log_loss_difference_error = 0;
    std::vector<fit::CalibrationBin> by_predicted_win, by_material;
};

struct DataScores {
    double positions = 0;  // scored: retained by the filter, as scoreWDL retains them
    // The groups of grouped counts: the errors take them as the independent units. None:
    // plain counts, whose errors take the positions as independent (too small for games).
    std::optional<counts::Grouping> grouping;
    int groups = 0;                  // groups with scored positions
    std::string normalization;       // how the displayed evals were converted
    std::vector<std::string> notes;  // approximations made, e.g. for ply models
    std::vector<ModelDataScore> models;
};

// Scores every model on the retained positions of the counts: each position's displayed eval
// becomes an internal eval by `normalization` (how the engine that played displayed it), and
// each model predicts W, D, L there at its own mom (material, move, or for a ply model the
// ply of the move as corresponding_mom reads it). Throws wdl::Error when no position is retained.
DataScores score_models(const std::vector<model::NamedModel>& models,
                        const counts::MergedCounts& counts,
                        const model::Normalization& normalization, const fit::GridFilter& filter);

// The printed table: a line per model and the verdict on the first two.
std::string data_scores_text(const DataScores& scores);
// The same, with the calibration tables, for --json.
nlohmann::ordered_json data_scores_json(const DataScores& scores);

}  // namespace wdl::compare
