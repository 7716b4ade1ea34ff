#include "wdl/compare/data_scores.hpp"

#include <fmt/format.h>

#include <cmath>

#include "wdl/compare/model_comparison.hpp"
#include "wdl/fit/objective.hpp"
#include "wdl/model/printed_eval.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"

namespace wdl::compare {
namespace {

// One model's sums: per group (grouped counts) and over all positions (for plain counts).
struct ModelSums {
    std::vector<double> log_loss, brier, square_error, difference;
    double log_loss_squares = 0, brier_squares = 0, difference_squares = 0;
    fit::CalibrationTable calibration;

    explicit ModelSums(std::size_t groups)
        : log_loss(groups), brier(groups), square_error(groups), difference(groups) {}
};

stats::MeanEstimate mean_of(const std::vector<double>& sums, double squares,
                            const std::vector<double>& positions, bool grouped) {
    if (grouped) return stats::grouped_mean(sums, positions);
    double total = 0, count = 0;
    for (std::size_t g = 0; g < sums.size(); ++g) {
        total += sums[g];
        count += positions[g];
    }
    return stats::independent_mean(total, squares, count);
}

ModelDataScore summarize(const std::string& name, const ModelSums& sums,
                         const std::vector<double>& positions, bool grouped) {
    ModelDataScore score;
    score.name = name;
    auto log_loss = mean_of(sums.log_loss, sums.log_loss_squares, positions, grouped);
    auto brier = mean_of(sums.brier, sums.brier_squares, positions, grouped);
    auto difference = mean_of(sums.difference, sums.difference_squares, positions, grouped);
    auto square_error = mean_of(sums.square_error, 0, positions, grouped);
    score.log_loss = log_loss.value;
    score.log_loss_error = log_loss.error;
    score.brier = brier.value;
    score.brier_error = brier.error;
    score.score_rmse = std::sqrt(square_error.value);
    score.log_loss_difference = difference.value;
    score.log_loss_difference_error = difference.error;
    score.by_predicted_win = sums.calibration.by_predicted_win();
    score.by_material = sums.calibration.by_material();
    return score;
}

}  // namespace

DataScores score_models(const std::vector<model::NamedModel>& models,
                        const counts::MergedCounts& counts,
                        const model::Normalization& normalization, const fit::GridFilter& filter) {
    DataScores result;
    result.grouping = counts.grouping;
    result.normalization = normalization.description();
    for (const auto& named : models)
        if (named.model.mom_type == model::MomType::Ply)
            result.notes.push_back(fmt::format(
                "{} depends on the ply, which count files do not hold: its ply is read off the "
                "move as for White to move, 2 (move - 1): half a ply early on average.",
                named.name));
    bool grouped = counts.grouping.has_value();
    std::size_t groups = grouped ? std::size_t(counts.grouping->groups) : 1;
    fit::CountGrid grid(filter, normalization);  // only for its filter and conversion
    std::vector<double> positions(groups);
    std::vector<ModelSums> sums(models.size(), ModelSums(groups));
    std::vector<double> losses(models.size());
    counts.counts.for_each([&](std::uint64_t packed, int group_number, std::uint64_t stored) {
        auto key = counts::unpack_key(packed);
        auto cell = grid.cell_of(key);
        if (!cell) return;
        auto group = std::size_t(group_number);
        double count = double(stored);
        int outcome = int(key.result);
        positions[group] += count;
        for (std::size_t m = 0; m < models.size(); ++m) {
            const auto& model = models[m].model;
            double mom = model::mom_of_counted(model, key.move, key.material);
            double win = model.win(cell->eval, mom), loss = model.loss(cell->eval, mom);
            fit::Wdl p{win, 1 - win - loss, loss};
            losses[m] = fit::outcome_log_loss(p[std::size_t(outcome)]);
            double brier = fit::brier_score(p, outcome);
            double score_error = fit::expected_score_error(p, outcome);
            double difference = losses[m] - losses[0];
            ModelSums& s = sums[m];
            s.log_loss[group] += count * losses[m];
            s.brier[group] += count * brier;
            s.square_error[group] += count * score_error * score_error;
            s.difference[group] += count * difference;
            s.log_loss_squares += count * losses[m] * losses[m];
            s.brier_squares += count * brier * brier;
            s.difference_squares += count * difference * difference;
            s.calibration.add(p, outcome, count, key.material);
        }
    });
    for (double n : positions) {
        result.positions += n;
        result.groups += n > 0;
    }
    if (result.positions == 0)
        throw Error("no position of the counts is retained by the filters: nothing to score.");
    for (std::size_t m = 0; m < models.size(); ++m)
        result.models.push_back(summarize(models[m].name, sums[m], positions, grouped));
    return result;
}

std::string data_scores_text(const DataScores& scores) {
    std::string text = fmt::format(
        "Scored on {:.0f} positions (evals converted with {}); errors {}.\n", scores.positions,
        scores.normalization,
        scores.grouping
            ? fmt::format("take the {} {} groups as independent", scores.groups,
                          counts::group_by_name(scores.grouping->by))
            : std::string("take the positions as independent (plain counts: too small for "
                          "positions of games; scan with --groups for honest ones)"));
    for (const auto& note : scores.notes) text += "Note: " + note + "\n";
    text += fmt::format("{:<24}{:>22}{:>22}{:>12}{:>26}\n", "model", "log-loss", "Brier",
                        "score RMSE", "log-loss - first's");
    for (const auto& m : scores.models) {
        text += fmt::format(
            "{:<24}{:>22}{:>22}{:>12.5f}{:>26}\n", m.name,
            fmt::format("{:.5f} +- {:.5f}", m.log_loss, m.log_loss_error),
            fmt::format("{:.5f} +- {:.5f}", m.brier, m.brier_error), m.score_rmse,
            fmt::format("{:+.5f} +- {:.5f}", m.log_loss_difference, m.log_loss_difference_error));
    }
    if (scores.models.size() >= 2) {
        const auto& second = scores.models[1];
        double d = -second.log_loss_difference, se = second.log_loss_difference_error;
        const auto& better = d > 0 ? second.name : scores.models[0].name;
        const auto& worse = d > 0 ? scores.models[0].name : second.name;
        double z = se > 0 ? std::abs(d) / se : INFINITY;
        text += fmt::format(
            "{} predicts these games better than {} by {:.5f} +- {:.5f} nats per position "
            "({:.1f} standard errors: {}).\n",
            better, worse, std::abs(d), se, z,
            z >= 1.96 ? "significant at 5 %" : "within the noise");
    }
    return text;
}

namespace {

nlohmann::ordered_json calibration_json(const std::vector<fit::CalibrationBin>& bins) {
    nlohmann::ordered_json json = nlohmann::ordered_json::array();
    for (const auto& bin : bins)
        json.push_back({{"bin", bin.label},
                        {"positions", bin.positions},
                        {"predicted", bin.predicted},
                        {"observed", bin.observed}});
    return json;
}

}  // namespace

nlohmann::ordered_json data_scores_json(const DataScores& scores) {
    nlohmann::ordered_json json;
    json["positions"] = scores.positions;
    json["normalization"] = scores.normalization;
    json["errors"] = scores.grouping ? "groups" : "positions";
    if (scores.grouping)
        json["grouping"] = {{"groupBy", counts::group_by_name(scores.grouping->by)},
                            {"groups", scores.groups}};
    json["notes"] = scores.notes;
    json["models"] = nlohmann::ordered_json::array();
    for (const auto& m : scores.models) {
        json["models"].push_back(
            {{"name", m.name},
             {"logLoss", m.log_loss},
             {"logLossError", m.log_loss_error},
             {"brier", m.brier},
             {"brierError", m.brier_error},
             {"scoreRmse", m.score_rmse},
             {"logLossDifference", m.log_loss_difference},
             {"logLossDifferenceError", m.log_loss_difference_error},
             {"calibrationByPredictedWin", calibration_json(m.by_predicted_win)},
             {"calibrationByMaterial", calibration_json(m.by_material)}});
    }
    return json;
}

}  // namespace wdl::compare
