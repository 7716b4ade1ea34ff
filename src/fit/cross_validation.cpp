#include "wdl/fit/cross_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "held_out_scores.hpp"
#include "wdl/fit/objective.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/model/printed_eval.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"

namespace wdl::fit {
namespace {

using detail::model_prediction;
using detail::Prediction;
using detail::prediction_of;
using detail::PredictionCache;
using detail::Scores;

ModelValidation summarize(std::string name, std::string description, const Scores& scores,
                          const Scores& fitted) {
    ModelValidation model;
    model.name = std::move(name);
    model.description = std::move(description);
    auto log_loss = stats::grouped_mean(scores.log_loss, scores.positions);
    auto brier = stats::grouped_mean(scores.brier, scores.positions);
    auto square_error = stats::grouped_mean(scores.square_error, scores.positions);
    model.log_loss = log_loss.value;
    model.log_loss_error = log_loss.error;
    model.brier = brier.value;
    model.brier_error = brier.error;
    model.score_rmse = std::sqrt(square_error.value);
    model.score_rmse_error = square_error.error / (2 * model.score_rmse);
    std::vector<double> differences(scores.log_loss.size());
    for (std::size_t g = 0; g < differences.size(); ++g)
        differences[g] = scores.log_loss[g] - fitted.log_loss[g];
    auto difference = stats::grouped_mean(differences, scores.positions);
    model.log_loss_difference = difference.value;
    model.log_loss_difference_error = difference.error;
    model.by_predicted_win = scores.calibration.by_predicted_win();
    model.by_material = scores.calibration.by_material();
    return model;
}

// W, D, L counts per displayed cp.
using CpCounts = std::map<int, Wdl>;

CpCounts cp_counts(const std::vector<KeyCount>& counts) {
    CpCounts table;
    for (const KeyCount& entry : counts) {
        counts::PositionKey key = counts::unpack_key(entry.key);
        table[key.eval][std::size_t(key.result)] += double(entry.count);
    }
    return table;
}

void add_cp_counts(CpCounts& table, const CpCounts& other, double weight) {
    for (const auto& [cp, wdl] : other)
        for (std::size_t o = 0; o < 3; ++o) table[cp][o] += weight * wdl[o];
}

double baseline_score(double slope, int cp) { return model::logistic(slope * cp); }

Prediction baseline_prediction(double slope, int cp) {
    double s = baseline_score(slope, cp);
    return prediction_of({s * s, 2 * s * (1 - s), (1 - s) * (1 - s)});
}

// The maximum-likelihood slope 1 / scale of the baseline. Its W, D, L are those of two
// half-points each won with probability s, so the likelihood is a logistic regression of
// 2W + D successes in 2(W + D + L) trials on cp: convex, solved by Newton's method.
double fit_baseline_slope(const CpCounts& training) {
    double slope = 1.0 / 300;  // about lichess' 0.00368 per cp
    for (int step = 0; step < 100; ++step) {
        double gradient = 0, curvature = 0;
        for (const auto& [cp, wdl] : training) {
            double n = wdl[0] + wdl[1] + wdl[2];
            double s = baseline_score(slope, cp);
            gradient += cp * (2 * n * s - (2 * wdl[0] + wdl[1]));
            curvature += 2 * n * double(cp) * cp * s * (1 - s);
        }
        if (!(curvature > 0)) break;
        double move = gradient / curvature;
        slope -= move;
        if (std::abs(move) <= 1e-12 * std::abs(slope)) break;
    }
    return slope;
}

// Scores held-out groups with the three models, keeping every model's sums.
class FoldScorer {
  public:
    FoldScorer(const GroupedData& data, const model::Normalization& normalization)
        : fitted(data.group_count()),
          shipped(data.group_count()),
          baseline(data.group_count()),
          shipped_model(normalization.model()),
          data_(data),
          fitted_cache_(data.grid().cell_count()),
          shipped_cache_(data.grid().cell_count()),
          baseline_cache_(std::size_t{1} << 16) {}

    // Scores the held-out groups with the fold's fitted model and baseline slope.
    void score(const std::vector<std::size_t>& held_out, const model::WdlModel& model,
               double slope) {
        fitted_cache_.clear();
        baseline_cache_.clear();
        // The engine's model depends on the cell when it takes the grid's mom, clamped.
        bool shipped_by_cell = shipped_model && shipped_model->mom_type == data_.grid().mom_type();
        for (std::size_t g : held_out) {
            for (const KeyCount& entry : data_.counts(g)) {
                counts::PositionKey key = counts::unpack_key(entry.key);
                GridCell cell = data_.grid().cell_at(entry.cell);
                double count = double(entry.count);
                int outcome = int(key.result);
                fitted.add(
                    g,
                    fitted_cache_.get(entry.cell,
                                      [&] { return model_prediction(model, cell.eval, cell.mom); }),
                    outcome, count, key.material);
                if (shipped_model) {
                    auto predict = [&] {
                        // The model clamps its mom itself.
                        double mom = model::mom_of_counted(*shipped_model, key.move, key.material);
                        return model_prediction(*shipped_model, cell.eval, mom);
                    };
                    shipped.add(
                        g, shipped_by_cell ? shipped_cache_.get(entry.cell, predict) : predict(),
                        outcome, count, key.material);
                }
                baseline.add(
                    g,
                    baseline_cache_.get(std::size_t(key.eval + 32768),
                                        [&] { return baseline_prediction(slope, key.eval); }),
                    outcome, count, key.material);
            }
        }
    }

    Scores fitted, shipped, baseline;
    std::optional<model::WdlModel> shipped_model;

  private:
    const GroupedData& data_;
    PredictionCache fitted_cache_, shipped_cache_, baseline_cache_;
};

}  // namespace

CrossValidation cross_validate(const GroupedData& data, const FitResult& fit,
                               const FitOptions& options, const model::Normalization& normalization,
                               const counts::Grouping& grouping,
                               const CrossValidationOptions& validation) {
    const std::size_t groups = data.group_count();
    if (groups < 2) {
        throw Error(
            fmt::format("cross-validation needs at least 2 groups with retained "
                        "positions; the data have {}.",
                        groups));
    }
    CrossValidation result;
    result.folds = int(std::min<std::size_t>(std::size_t(std::max(validation.folds, 2)), groups));
    result.grouping = grouping;
    result.groups = int(groups);
    auto fold_of = [&](std::size_t group) { return fit::fold_of(group, result.folds); };

    std::vector<std::vector<double>> weights(std::size_t(result.folds),
                                             std::vector<double>(groups, 1.0));
    std::vector<CpCounts> group_cp;
    CpCounts total_cp;
    for (std::size_t g = 0; g < groups; ++g) {
        weights[std::size_t(fold_of(g))][g] = 0;
        group_cp.push_back(cp_counts(data.counts(g)));
        add_cp_counts(total_cp, group_cp.back(), 1);
    }
    auto refits = refit_weighted(data, options, fit.model, weights, validation.threads);

    FoldScorer scorer(data, normalization);
    for (int fold = 0; fold < result.folds; ++fold) {
        const Refit& refit = refits[std::size_t(fold)];
        if (!refit.minimization.converged) {
            result.failures.push_back(
                fmt::format("fold {}: {}", fold + 1, refit.minimization.message));
            continue;
        }
        CpCounts training = total_cp;
        std::vector<std::size_t> held_out;
        for (std::size_t g = 0; g < groups; ++g) {
            if (fold_of(g) != fold) continue;
            add_cp_counts(training, group_cp[g], -1);
            held_out.push_back(g);
        }
        double slope = fit_baseline_slope(training);
        result.baseline_scales.push_back(1 / slope);
        scorer.score(held_out, refit.model, slope);
    }
    if (result.baseline_scales.empty())
        throw Error("cross-validation failed: the fit of no fold converged.");
    for (double positions : scorer.fitted.positions) result.positions += positions;
    result.models.push_back(summarize("fitted",
                                      fmt::format("fitted ({})", method_name(options.method)),
                                      scorer.fitted, scorer.fitted));
    if (scorer.shipped_model) {
        result.models.push_back(
            summarize("NormalizeData", "NormalizeData (as, bs)", scorer.shipped, scorer.fitted));
    }
    result.models.push_back(
        summarize("baseline", "baseline (cp only)", scorer.baseline, scorer.fitted));
    return result;
}

}  // namespace wdl::fit
