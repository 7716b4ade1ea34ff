#include "wdl/scale/scale_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "wdl/fit/fit_report.hpp"

namespace wdl::scale {
namespace {

std::string percent_of_ratio(double ratio) { return fmt::format("{:+.1f} %", 100 * (ratio - 1)); }

// A ratio's or difference's estimate with its interval, in percent (of the ratio above 1) or
// percentage points.
std::string figure_text(const fit::ResampledEstimate& figure, bool ratio) {
    if (ratio)
        return fmt::format("{} ({:.1f} .. {:.1f} %)", percent_of_ratio(figure.estimate),
                           100 * (figure.low - 1), 100 * (figure.high - 1));
    return fmt::format("{:+.1f} pp ({:.1f} .. {:.1f} pp)", 100 * figure.estimate, 100 * figure.low,
                       100 * figure.high);
}

std::string constant_text(const fit::ResampledEstimate& estimate, bool rate) {
    if (rate)
        return fmt::format("{:.1f} +- {:.1f} %", 100 * estimate.estimate,
                           100 * estimate.standard_error);
    return fmt::format("{:.1f} +- {:.1f}", estimate.estimate, estimate.standard_error);
}

bool excludes(const fit::ResampledEstimate& figure, double value) {
    return figure.low > value || figure.high < value;
}

std::string asymmetry_text(const Asymmetry& asymmetry, const std::string& engine,
                           double confidence) {
    int percent = int(std::lround(100 * confidence));
    std::string text = fmt::format("  {:<5}", engine + ":");
    if (!asymmetry.ratio) return text + " " + asymmetry.no_result + "\n";
    const auto& ratio = *asymmetry.ratio;
    text += fmt::format(
        " side ahead / side behind {} net of strength ({} % interval {:.1f} .. {:.1f} %; scale "
        "ahead {:.3f}, behind {:.3f}): {}.\n",
        percent_of_ratio(ratio.estimate), percent, 100 * (ratio.low - 1), 100 * (ratio.high - 1),
        asymmetry.ahead->estimate, asymmetry.behind->estimate,
        excludes(ratio, 1) ? "asymmetric" : "no asymmetry beyond the noise");
    if (asymmetry.held_out)
        text += "         held out: " + held_out_verdict(*asymmetry.held_out) + "\n";
    else if (!asymmetry.no_result.empty())
        text += "         " + asymmetry.no_result + "\n";
    return text;
}

std::string strength_text(const ScaleComparison& comparison, double confidence) {
    if (!comparison.strength) return "  Strength: " + comparison.no_strength + ".\n";
    int percent = int(std::lround(100 * confidence));
    const auto& strength = *comparison.strength;
    return fmt::format(
        "  Strength, fitted with the scales per side: New {:+.1f} Elo at eval 0 ({} % interval "
        "{:.1f} .. {:.1f}; delta {:+.4f} +- {:.4f} on the logit of win and loss): {}.\n",
        strength.elo.estimate, percent, strength.elo.low, strength.elo.high,
        strength.delta.estimate, strength.delta.standard_error,
        excludes(strength.elo, 0) ? "one engine wins more than its evals say"
                                  : "no strength difference beyond the noise");
}

nlohmann::ordered_json estimate_json(const fit::ResampledEstimate& estimate) {
    return {{"name", estimate.name},
            {"estimate", estimate.estimate},
            {"standardError", estimate.standard_error},
            {"low", estimate.low},
            {"high", estimate.high}};
}

nlohmann::ordered_json engine_json(const EngineFit& engine) {
    nlohmann::ordered_json json{{"positions", engine.positions}};
    if (!engine.fit) {
        json["fit"] = nullptr;
        json["noFit"] = engine.no_fit;
        return json;
    }
    json["fit"] = fit::fit_json(*engine.fit);
    json["estimates"] = nlohmann::ordered_json::array();
    for (const auto& estimate : engine.estimates)
        json["estimates"].push_back(estimate_json(estimate));
    return json;
}

nlohmann::ordered_json figure_json(const PairedFigure& figure) {
    auto json = estimate_json(figure.paired);
    json["unpairedStandardError"] = figure.unpaired_error;
    return json;
}

}  // namespace

std::string format_method(int game_groups, double confidence, bool asymmetry, int folds) {
    int percent = int(std::lround(100 * confidence));
    std::string text = fmt::format(
        "Each engine is fitted on its own moves (the positions whose eval it wrote). Intervals "
        "({} %): a delete-one-group jackknife over {} groups of games that leaves the same games "
        "out of both engines' fits, so that a ratio carries what the shared games make common to "
        "both; they assume the groups are independent and the replicates near normal (t with "
        "G - 1 degrees of freedom). 'unpaired' is the error if the two fits were independent.\n",
        percent, game_groups);
    if (asymmetry)
        text += fmt::format(
            "Strength and asymmetry, fitted together on both engines' positions: each engine's "
            "model held fixed, its evals divided by a scale of their own above 0 (the side "
            "ahead) and below 0 (the side behind), and one strength term shared with opposite "
            "signs, New's win and loss logits shifted by +delta and -delta at every eval, "
            "Base's by -delta and +delta: a stronger engine wins more than its evals say, which "
            "would otherwise read as a steeper curve ahead and a flatter one behind. The "
            "asymmetry is s ahead / s behind net of strength; ratios' intervals are exp(log r +- "
            "t se). Strength in Elo: the Elo difference whose expected score is New's at eval 0 "
            "in New's model at its target material. Both assume the engines' symmetric models "
            "hold up to these scales and the term, and the same strength at every eval. Held "
            "out: an engine's scales per side against the model without them (the other's "
            "kept), both fitted with the strength term on the other folds, log-loss on {} folds "
            "of the game groups.\n",
            folds);
    return text;
}

std::string held_out_verdict(const HeldOutDifference& held_out) {
    double gain = -held_out.difference;
    bool better = gain > 1.96 * held_out.error;
    return fmt::format(
        "its scales per side {} the log-loss by {:.2e} +- {:.1e} per position ({:.0f} positions, "
        "{} folds): {}",
        gain >= 0 ? "lower" : "raise", std::abs(gain), held_out.error, held_out.positions,
        held_out.folds,
        better ? "the asymmetric model predicts better" : "no better than without them");
}

std::string format_comparison(const ScaleComparison& comparison, double confidence) {
    int percent = int(std::lround(100 * confidence));
    std::string text = fmt::format("\n{}: {} vs {}, {} games", comparison.name, comparison.names[0],
                                   comparison.names[1], comparison.games);
    if (comparison.tests.size() > 1) text += fmt::format(" of {} tests", comparison.tests.size());
    text += fmt::format("; positions retained: New {:.0f}, Base {:.0f}.\n",
                        comparison.engines[0].positions, comparison.engines[1].positions);
    if (comparison.figures.empty()) {
        for (int role = 0; role < 2; ++role)
            if (!comparison.engines[role].fit)
                text += fmt::format("  {}: no fit ({}).\n", games::kRoleNames[role],
                                    comparison.engines[role].no_fit);
        return text + "  No comparison: " + comparison.no_comparison + ".\n";
    }
    text += fmt::format("  {:<22}{:>18}{:>18}{:>32}{:>12}\n", "", "New", "Base",
                        fmt::format("New vs Base ({} % interval)", percent), "unpaired");
    for (std::size_t c = 0; c < comparison.figures.size(); ++c) {
        const auto& figure = comparison.figures[c];
        bool ratio = c < 2, rate = c == 2;
        std::string name = comparison.engines[0].estimates[c].name;
        text += fmt::format("  {:<22}{:>18}{:>18}{:>32}{:>12}\n", name,
                            constant_text(comparison.engines[0].estimates[c], rate),
                            constant_text(comparison.engines[1].estimates[c], rate),
                            figure_text(figure.paired, ratio),
                            ratio ? fmt::format("+- {:.1f} %", 100 * figure.unpaired_error)
                                  : fmt::format("+- {:.1f} pp", 100 * figure.unpaired_error));
    }
    const auto& scale = comparison.figures.front();
    text += fmt::format(
        "  New's evals are {:.1f} % {} than Base's ({} % interval {:.1f} .. {:.1f} %): {}.\n",
        std::abs(100 * (scale.paired.estimate - 1)),
        scale.paired.estimate >= 1 ? "larger" : "smaller", percent, 100 * (scale.paired.low - 1),
        100 * (scale.paired.high - 1),
        excludes(scale.paired, 1) ? "the patch changed the eval scale"
                                  : "no change of the eval scale beyond the noise");
    if (scale.unpaired_error > 0)
        text += fmt::format(
            "  Paired over the same games the error is {:.0f} % of the unpaired one ({:.2f} % "
            "against {:.2f} %); jackknife over {} game groups, {} replicates.\n",
            100 * scale.paired.standard_error / scale.unpaired_error,
            100 * scale.paired.standard_error, 100 * scale.unpaired_error, comparison.groups,
            comparison.replicates);
    if (!comparison.failures.empty())
        text += fmt::format("  {} replicates left out: {}.\n", comparison.failures.size(),
                            comparison.failures.front());
    if (comparison.asymmetry[0] || comparison.asymmetry[1]) {
        text += strength_text(comparison, confidence);
        text +=
            "  Asymmetry (the scale of the side ahead / of the side behind, net of strength):\n";
        for (int role = 0; role < 2; ++role)
            if (comparison.asymmetry[role])
                text += asymmetry_text(*comparison.asymmetry[role], games::kRoleNames[role],
                                       confidence);
    }
    return text;
}

nlohmann::ordered_json comparison_json(const ScaleComparison& comparison) {
    nlohmann::ordered_json json{{"name", comparison.name},
                                {"tests", comparison.tests},
                                {"new", comparison.names[0]},
                                {"base", comparison.names[1]},
                                {"games", comparison.games},
                                {"groups", comparison.groups},
                                {"replicates", comparison.replicates},
                                {"failures", comparison.failures}};
    json["engines"] = {{"new", engine_json(comparison.engines[0])},
                       {"base", engine_json(comparison.engines[1])}};
    json["figures"] = nlohmann::ordered_json::array();
    for (const auto& figure : comparison.figures) json["figures"].push_back(figure_json(figure));
    json["noComparison"] = comparison.figures.empty()
                               ? nlohmann::ordered_json(comparison.no_comparison)
                               : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json asymmetry = nlohmann::ordered_json::object();
    for (int role = 0; role < 2; ++role) {
        if (!comparison.asymmetry[role]) continue;
        const Asymmetry& side = *comparison.asymmetry[role];
        auto optional_estimate = [](const std::optional<fit::ResampledEstimate>& estimate) {
            return estimate ? estimate_json(*estimate) : nlohmann::ordered_json(nullptr);
        };
        nlohmann::ordered_json entry{{"positionsAhead", side.positions_ahead},
                                     {"positionsBehind", side.positions_behind},
                                     {"ahead", optional_estimate(side.ahead)},
                                     {"behind", optional_estimate(side.behind)}};
        entry["ratio"] = optional_estimate(side.ratio);
        entry["heldOut"] =
            side.held_out ? nlohmann::ordered_json{{"logLossDifference", side.held_out->difference},
                                                   {"standardError", side.held_out->error},
                                                   {"positions", side.held_out->positions},
                                                   {"folds", side.held_out->folds}}
                          : nlohmann::ordered_json(nullptr);
        entry["noResult"] = side.no_result.empty() ? nlohmann::ordered_json(nullptr)
                                                   : nlohmann::ordered_json(side.no_result);
        asymmetry[role == 0 ? "new" : "base"] = std::move(entry);
    }
    json["asymmetry"] = std::move(asymmetry);
    if (comparison.strength)
        json["strength"] = {{"delta", estimate_json(comparison.strength->delta)},
                            {"elo", estimate_json(comparison.strength->elo)}};
    else if (comparison.asymmetry[0] || comparison.asymmetry[1])
        json["strength"] = {{"noResult", comparison.no_strength}};
    return json;
}

}  // namespace wdl::scale
