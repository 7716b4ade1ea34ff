#pragma once
// Scoring held-out positions and comparing the scores, shared by cross-validation, model
// selection, the mom cut and the comparison of sources (a private header of the fit module).

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "wdl/fit/calibration.hpp"
#include "wdl/fit/folds.hpp"
#include "wdl/fit/objective.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/stats/distributions.hpp"

namespace wdl::fit::detail {

// A model's W, D, L probabilities at a position and their losses -log(max(p, floor)).
struct Prediction {
    Wdl p{}, loss{};
};

inline Prediction prediction_of(const Wdl& p) {
    return {p, {outcome_log_loss(p[0]), outcome_log_loss(p[1]), outcome_log_loss(p[2])}};
}

inline Prediction model_prediction(const model::WdlModel& model, double eval, double mom) {
    double win = model.win(eval, mom), loss = model.loss(eval, mom);
    return prediction_of({win, 1 - win - loss, loss});
}

// Predictions computed once per fold for each of `size` indices (grid cells, displayed cps):
// a fold holds many positions per index, and their logarithms dominate the scoring.
class PredictionCache {
  public:
    explicit PredictionCache(std::size_t size) : predictions_(size), ready_(size) {}

    template <typename Compute>
    const Prediction& get(std::size_t index, Compute&& compute) {
        if (!ready_[index]) {
            predictions_[index] = compute();
            ready_[index] = 1;
        }
        return predictions_[index];
    }
    void clear() { std::fill(ready_.begin(), ready_.end(), 0); }

  private:
    std::vector<Prediction> predictions_;
    std::vector<unsigned char> ready_;
};

// A model's losses summed per group, and its calibration bins.
struct Scores {
    std::vector<double> positions, log_loss, brier, square_error;
    CalibrationTable calibration;

    explicit Scores(std::size_t groups)
        : positions(groups), log_loss(groups), brier(groups), square_error(groups) {}

    void add(std::size_t group, const Prediction& prediction, int outcome, double count,
             int material) {
        const Wdl& p = prediction.p;
        positions[group] += count;
        log_loss[group] += count * prediction.loss[std::size_t(outcome)];
        brier[group] += count * brier_score(p, outcome);
        double score_error = expected_score_error(p, outcome);
        square_error[group] += count * score_error * score_error;
        calibration.add(p, outcome, count, material);
    }
};

// The per-group sums of the groups that were scored (a subsample leaves the others empty),
// so that the standard errors count only those.
inline std::pair<std::vector<double>, std::vector<double>> scored_groups(
    const std::vector<double>& sums, const std::vector<double>& positions) {
    std::vector<double> kept_sums, kept_positions;
    for (std::size_t g = 0; g < sums.size(); ++g) {
        if (positions[g] == 0) continue;
        kept_sums.push_back(sums[g]);
        kept_positions.push_back(positions[g]);
    }
    return {kept_sums, kept_positions};
}

inline stats::MeanEstimate grouped_mean_of_scored(const std::vector<double>& sums,
                                                  const std::vector<double>& positions) {
    auto [kept_sums, kept_positions] = scored_groups(sums, positions);
    return stats::grouped_mean(kept_sums, kept_positions);
}

inline stats::MeanEstimate paired_difference(const Scores& scores, const Scores& other) {
    std::vector<double> differences(scores.log_loss.size());
    for (std::size_t g = 0; g < differences.size(); ++g)
        differences[g] = scores.log_loss[g] - other.log_loss[g];
    return grouped_mean_of_scored(differences, scores.positions);
}

// A paired difference of held-out log-losses and its standard error, as the reports print it.
inline std::string difference_text(double value, double error) {
    return fmt::format("{:+.6f} +- {:.6f}", value, error);
}

}  // namespace wdl::fit::detail
