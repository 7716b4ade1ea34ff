#pragma once
// Scoring held-out positions, shared by cross-validation and model selection (a private
// header of the fit module).

#include <algorithm>
#include <cstddef>
#include <vector>

#include "wdl/fit/calibration.hpp"
#include "wdl/fit/objective.hpp"
#include "wdl/model/wdl_model.hpp"

namespace wdl::fit::detail {

// The fold a group is dealt into: round robin, so that every fold holds groups from the whole
// file (its tests or games in the order they were scanned).
inline int fold_of(std::size_t group, int folds) { return int(group % std::size_t(folds)); }

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

}  // namespace wdl::fit::detail
