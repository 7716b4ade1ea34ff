#include <fmt/format.h>

#include <cmath>

#include "wdl/fit/fit_report.hpp"

namespace wdl::fit {
namespace {

// "64 game groups", "6 test groups"
std::string groups_text(int groups, const counts::Grouping& grouping) {
    return fmt::format("{} {} group{}", groups, counts::group_by_name(grouping.by),
                       groups == 1 ? "" : "s");
}

std::string resampling_name(const Resampling& resampling) {
    std::string method = resampling.method == ResampleMethod::Bootstrap
                             ? fmt::format("bootstrap ({} draws)", resampling.replicates)
                             : std::string("jackknife");
    return method + " over " + groups_text(resampling.groups, resampling.grouping);
}

// Decimals that show a standard error with two significant digits.
int error_decimals(double error) {
    if (!(error > 0) || !std::isfinite(error)) return 2;
    return std::max(0, 1 - int(std::floor(std::log10(error))));
}

std::string printed_name(const std::string& name) {
    return name == "drawRateAtZero" ? "Draw rate at 0.0 eval" : name;
}

std::string estimate_line(const ResampledEstimate& estimate, const Resampling& resampling,
                          const model::WdlModel& model) {
    int error_digits = error_decimals(estimate.standard_error);
    int digits = std::max(0, error_digits - 1);
    auto number = [digits](double value) { return fmt::format("{:.{}f}", value, digits); };
    // Shown whole, the pawn value and spread are the model's own rounded constants.
    std::string value = number(estimate.estimate);
    if (digits == 0 && estimate.name == "NormalizeToPawnValue")
        value = std::to_string(model.pawn_value());
    if (digits == 0 && estimate.name == "spread") value = std::to_string(model.spread());
    std::string line = fmt::format("{} = {} +- {:.{}f} ({:.0f} % interval {} .. {}; {}",
                                   printed_name(estimate.name), value, estimate.standard_error,
                                   error_digits, resampling.confidence * 100, number(estimate.low),
                                   number(estimate.high), resampling_name(resampling));
    if (estimate.design_effect)
        line += fmt::format("; design effect {:.1f}", *estimate.design_effect);
    return line + ")\n";
}

}  // namespace

std::string resampling_report(const Resampling& resampling, const model::WdlModel& model) {
    if (!resampling.no_interval.empty()) {
        return fmt::format("Error bars from the {}: none, {} ({}).\n", resampling_name(resampling),
                           resampling.no_interval, resampling.failures.front());
    }
    std::string text = fmt::format(
        "Error bars from the {}: they take the groups as independent, not the positions{}.\n",
        resampling_name(resampling),
        resampling.estimates.front().design_effect
            ? "; design effect = their variance over that of positions taken as independent"
            : "");
    if (!resampling.failures.empty()) {
        text += fmt::format(
            "Warning: {} of {} refits did not converge ({}); the error bars use the other {}, "
            "their spread taken for that of all {}.\n",
            resampling.failures.size(),
            resampling.failures.size() + std::size_t(resampling.replicates),
            resampling.failures.front(), resampling.replicates,
            resampling.failures.size() + std::size_t(resampling.replicates));
    }
    for (const auto& estimate : resampling.estimates)
        text += estimate_line(estimate, resampling, model);
    return text;
}

nlohmann::ordered_json resampling_json(const Resampling& resampling) {
    nlohmann::ordered_json json;
    json["method"] = resample_method_name(resampling.method);
    json["groupBy"] = counts::group_by_name(resampling.grouping.by);
    json["fileGroups"] = resampling.grouping.groups;
    json["groups"] = resampling.groups;
    json["replicates"] = resampling.replicates;
    json["failures"] = resampling.failures;
    json["maxFailedShare"] = kMaxFailedReplicateShare;
    if (!resampling.no_interval.empty()) json["noInterval"] = resampling.no_interval;
    json["confidence"] = resampling.confidence;
    json["assumes"] =
        "the groups are independent (positions within a group may be correlated in any way)";
    auto& estimates = json["estimates"] = nlohmann::ordered_json::object();
    for (const auto& estimate : resampling.estimates) {
        nlohmann::ordered_json entry;
        entry["estimate"] = estimate.estimate;
        entry["standardError"] = estimate.standard_error;
        entry["interval"] = {estimate.low, estimate.high};
        if (estimate.fisher_standard_error)
            entry["fisherStandardError"] = *estimate.fisher_standard_error;
        if (estimate.design_effect) entry["designEffect"] = *estimate.design_effect;
        estimates[estimate.name] = std::move(entry);
    }
    return json;
}

namespace {

std::string calibration_lines(const std::vector<CalibrationBin>& bins) {
    std::string text;
    for (const auto& bin : bins) {
        text += fmt::format("  {:>7} {:>10.0f}  {:.3f} {:.3f} {:.3f} / {:.3f} {:.3f} {:.3f}\n",
                            bin.label, bin.positions, bin.predicted[0], bin.predicted[1],
                            bin.predicted[2], bin.observed[0], bin.observed[1], bin.observed[2]);
    }
    return text;
}

nlohmann::ordered_json calibration_json(const std::vector<CalibrationBin>& bins) {
    nlohmann::ordered_json json = nlohmann::ordered_json::array();
    auto rates = [](const std::array<double, 3>& r) {
        return nlohmann::ordered_json{{"W", r[0]}, {"D", r[1]}, {"L", r[2]}};
    };
    for (const auto& bin : bins) {
        json.push_back({{"bin", bin.label},
                        {"positions", bin.positions},
                        {"predicted", rates(bin.predicted)},
                        {"observed", rates(bin.observed)}});
    }
    return json;
}

}  // namespace

std::string cross_validation_report(const CrossValidation& validation) {
    std::string text = fmt::format(
        "Cross-validation over {} folds of {} ({:.0f} positions, each scored by models fitted "
        "without its fold; +- standard errors take the groups as independent):\n",
        validation.folds, groups_text(validation.groups, validation.grouping),
        validation.positions);
    for (const auto& failure : validation.failures)
        text += fmt::format("Warning: {}; its positions are not scored.\n", failure);
    text += fmt::format("{:<30} {:<22} {:<22} {:<22} {}\n", "model", "log-loss", "Brier",
                        "score RMSE", "log-loss - fitted's");
    for (const auto& model : validation.models) {
        std::string difference = model.name == "fitted"
                                     ? ""
                                     : fmt::format("{:+.5f} +- {:.5f}", model.log_loss_difference,
                                                   model.log_loss_difference_error);
        text += fmt::format(
            "{:<30} {:<22} {:<22} {:<22} {}\n", model.description,
            fmt::format("{:.5f} +- {:.5f}", model.log_loss, model.log_loss_error),
            fmt::format("{:.5f} +- {:.5f}", model.brier, model.brier_error),
            fmt::format("{:.5f} +- {:.5f}", model.score_rmse, model.score_rmse_error), difference);
    }
    double scale_sum = 0;
    for (double scale : validation.baseline_scales) scale_sum += scale;
    text += fmt::format(
        "The baseline's expected score is 1 / (1 + exp(-cp / {:.1f})) (mean scale of the folds), "
        "split into W = s^2, D = 2s(1 - s), L = (1 - s)^2.\n",
        scale_sum / double(validation.baseline_scales.size()));
    const ModelValidation& fitted = validation.models.front();
    text +=
        "Calibration of the fitted model by predicted win rate (positions; predicted W D L / "
        "observed W D L):\n";
    text += calibration_lines(fitted.by_predicted_win);
    text += "Calibration of the fitted model by material:\n";
    text += calibration_lines(fitted.by_material);
    return text;
}

nlohmann::ordered_json cross_validation_json(const CrossValidation& validation) {
    nlohmann::ordered_json json;
    json["folds"] = validation.folds;
    json["groupBy"] = counts::group_by_name(validation.grouping.by);
    json["groups"] = validation.groups;
    json["positions"] = validation.positions;
    json["failures"] = validation.failures;
    json["baselineScales"] = validation.baseline_scales;
    json["assumes"] = "the groups are independent";
    auto& models = json["models"] = nlohmann::ordered_json::array();
    for (const auto& model : validation.models) {
        nlohmann::ordered_json entry;
        entry["name"] = model.name;
        entry["description"] = model.description;
        entry["logLoss"] = model.log_loss;
        entry["logLossStandardError"] = model.log_loss_error;
        entry["brier"] = model.brier;
        entry["brierStandardError"] = model.brier_error;
        entry["scoreRMSE"] = model.score_rmse;
        entry["scoreRMSEStandardError"] = model.score_rmse_error;
        entry["logLossMinusFitted"] = model.log_loss_difference;
        entry["logLossMinusFittedStandardError"] = model.log_loss_difference_error;
        entry["calibration"] = {{"byPredictedWin", calibration_json(model.by_predicted_win)},
                                {"byMaterial", calibration_json(model.by_material)}};
        models.push_back(std::move(entry));
    }
    return json;
}

}  // namespace wdl::fit
