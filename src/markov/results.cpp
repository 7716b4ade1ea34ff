#include "wdl/markov/results.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace wdl::markov {
namespace {

constexpr double kNoEstimate = std::numeric_limits<double>::quiet_NaN();

std::optional<ClassOutcomes> class_outcomes_of(const ClassScheme& classes,
                                               const std::optional<EvalOutcomes>& given,
                                               const counts::CountMap& positions,
                                               std::string& failure) {
    if (given)
        return ClassOutcomes{given->description(),
                             model_class_outcomes(classes, *given, positions)};
    auto fitted = fit_outcomes(positions);
    if (!fitted.outcomes) {
        failure = fitted.failure;
        return std::nullopt;
    }
    return ClassOutcomes{fitted.outcomes->description(),
                         model_class_outcomes(classes, *fitted.outcomes, positions)};
}

bool has_moves(const std::array<EngineChain, 2>& chains) {
    for (const auto& chain : chains)
        for (const Matrix* counts : {&chain.counts_as_white, &chain.counts_as_black})
            for (int i = 0; i < counts->size(); ++i)
                if (counts->row_sum(i) > 0) return true;
    return false;
}

void add_crossfit(PairingResult& result, const PairingTally& pairing, const ClassScheme& classes,
                  const AnalysisSettings& settings,
                  const std::array<std::optional<ClassOutcomes>, kFolds>& fold_outcomes) {
    if (result.actual.openings < 2) {
        result.crossfit_unavailable = "all games start from one opening";
        return;
    }
    for (int fold = 0; fold < kFolds; ++fold) {
        std::array<bool, kFolds> training{}, held_out{};
        training[std::size_t(fold)] = true;
        held_out[std::size_t(1 - fold)] = true;
        auto training_games = games_in(pairing, training);
        auto held_out_games = games_in(pairing, held_out);
        if (training_games.empty() || held_out_games.empty()) {
            result.crossfit_unavailable = "all openings fall in one fold";
            return;
        }
        MoveSelection selection{settings.per_colour, training};
        auto chains = engine_chains(pairing, selection);
        if (!has_moves(chains)) {
            result.crossfit_unavailable = fmt::format("no evaluated moves in fold {}", fold);
            continue;
        }
        auto start = start_distribution(pairing, selection, classes);
        CrossFitRow row;
        row.training_fold = fold;
        auto training_actual = actual_score(training_games);
        row.training_games = training_actual.games;
        row.training_openings = training_actual.openings;
        row.baseline = training_actual.score;
        row.held_out = actual_score(held_out_games);
        row.stationary =
            predict(chains, start, alliot_class_outcomes(classes.size())).overall.score();
        if (const auto& outcomes = fold_outcomes[std::size_t(fold)])
            row.model = predict(chains, start, outcomes->wdl).overall.score();
        result.crossfit.push_back(std::move(row));
    }
}

PredictionQuality quality(const std::vector<double>& predicted, const std::vector<double>& actual) {
    PredictionQuality result;
    result.points = predicted.size();
    if (predicted.empty()) return {0, kNoEstimate, kNoEstimate};
    double n = double(predicted.size());
    double error = 0, mean_p = 0, mean_a = 0;
    for (std::size_t i = 0; i < predicted.size(); ++i) {
        error += std::abs(predicted[i] - actual[i]);
        mean_p += predicted[i];
        mean_a += actual[i];
    }
    result.mean_absolute_error = error / n;
    mean_p /= n;
    mean_a /= n;
    double cov = 0, var_p = 0, var_a = 0;
    for (std::size_t i = 0; i < predicted.size(); ++i) {
        cov += (predicted[i] - mean_p) * (actual[i] - mean_a);
        var_p += (predicted[i] - mean_p) * (predicted[i] - mean_p);
        var_a += (actual[i] - mean_a) * (actual[i] - mean_a);
    }
    result.correlation = predicted.size() >= 3 && var_p > 0 && var_a > 0
                             ? cov / std::sqrt(var_p * var_a)
                             : kNoEstimate;
    return result;
}

ErrorDifference difference(const std::vector<double>& per_pairing) {
    ErrorDifference result;
    result.pairings = per_pairing.size();
    if (per_pairing.empty()) return {0, kNoEstimate, kNoEstimate};
    double n = double(per_pairing.size());
    double mean = 0;
    for (double d : per_pairing) mean += d;
    mean /= n;
    double squares = 0;
    for (double d : per_pairing) squares += (d - mean) * (d - mean);
    result.mean = mean;
    result.standard_error =
        per_pairing.size() >= 2 ? std::sqrt(squares / (n - 1) / n) : kNoEstimate;
    return result;
}

// A second sentence when the chains fit the games they saw far better than unseen ones.
std::string restating(const CrossFitSummary& summary) {
    double in_sample = summary.in_sample_stationary.mean_absolute_error;
    double held_out = summary.stationary.mean_absolute_error;
    if (!(in_sample < held_out / 2)) return "";
    return fmt::format(
        " On the games they were built from their error is only {:.4f}: there the chains "
        "largely restate the results.",
        in_sample);
}

std::string verdict_of(const CrossFitSummary& summary) {
    const auto& difference = summary.stationary_vs_baseline;
    if (summary.pairings < 2)
        return fmt::format(
            "Too few pairings with a cross-fit ({}) to say whether the chains predict unseen "
            "games better than the baseline.",
            summary.pairings);
    double low = difference.mean - kNormal975 * difference.standard_error;
    double high = difference.mean + kNormal975 * difference.standard_error;
    std::string measured = fmt::format(
        "mean absolute error {:.4f} against {:.4f} for the baseline (difference {:+.4f}, 95% "
        "interval {:+.4f} to {:+.4f}, over {} pairings)",
        summary.stationary.mean_absolute_error, summary.baseline.mean_absolute_error,
        difference.mean, low, high, difference.pairings);
    if (low > 0)
        return "On openings they did not see, the chains' stationary predictions are worse than "
               "the plain baseline (the other fold's actual score): " +
               measured + "." + restating(summary);
    if (high < 0)
        return "On openings they did not see, the chains' stationary predictions beat the plain "
               "baseline (the other fold's actual score): " +
               measured + "." + restating(summary);
    return "On openings they did not see, the chains' stationary predictions are not measurably "
           "better or worse than the plain baseline (the other fold's actual score): " +
           measured + "." + restating(summary);
}

}  // namespace

CrossFitSummary summarize_crossfit(const std::vector<PairingResult>& pairings) {
    CrossFitSummary summary;
    std::vector<double> stationary, model, baseline, actual, stationary_gap, model_gap;
    bool every_row_has_model = true;
    double noise = 0;
    for (const auto& pairing : pairings) {
        if (pairing.crossfit.empty()) continue;
        ++summary.pairings;
        double stationary_sum = 0, model_sum = 0;
        for (const auto& row : pairing.crossfit) {
            double truth = row.held_out.score;
            stationary.push_back(row.stationary);
            baseline.push_back(row.baseline);
            actual.push_back(truth);
            stationary_sum += std::abs(row.stationary - truth) - std::abs(row.baseline - truth);
            if (row.model) {
                model.push_back(*row.model);
                model_sum += std::abs(*row.model - truth) - std::abs(row.baseline - truth);
            } else {
                every_row_has_model = false;
            }
            if (std::isfinite(row.held_out.standard_error))
                noise += std::sqrt(2 / std::numbers::pi) * row.held_out.standard_error;
        }
        double rows = double(pairing.crossfit.size());
        stationary_gap.push_back(stationary_sum / rows);
        model_gap.push_back(model_sum / rows);
    }
    std::vector<double> in_sample_stationary, in_sample_model, in_sample_actual;
    for (const auto& pairing : pairings) {
        if (!pairing.evaluated) continue;
        in_sample_stationary.push_back(pairing.stationary.overall.score());
        if (pairing.model) in_sample_model.push_back(pairing.model->overall.score());
        in_sample_actual.push_back(pairing.actual.score);
    }
    summary.in_sample_stationary = quality(in_sample_stationary, in_sample_actual);
    if (!in_sample_model.empty() && in_sample_model.size() == in_sample_actual.size())
        summary.in_sample_model = quality(in_sample_model, in_sample_actual);
    summary.stationary = quality(stationary, actual);
    summary.baseline = quality(baseline, actual);
    summary.noise_floor = actual.empty() ? kNoEstimate : noise / double(actual.size());
    summary.stationary_vs_baseline = difference(stationary_gap);
    if (every_row_has_model && !model.empty()) {
        summary.model = quality(model, actual);
        summary.model_vs_baseline = difference(model_gap);
    }
    summary.verdict = verdict_of(summary);
    return summary;
}

MarkovResults analyse(const CollectedGames& games, const ClassScheme& classes,
                      const AnalysisSettings& settings) {
    MarkovResults results;
    counts::CountMap all = games.positions[0];
    all.merge(games.positions[1]);
    results.class_outcomes =
        class_outcomes_of(classes, settings.model, all, results.model_unavailable);
    std::string ignored;
    for (int fold = 0; fold < kFolds; ++fold)
        results.fold_class_outcomes[std::size_t(fold)] =
            class_outcomes_of(classes, settings.model, games.positions[std::size_t(fold)], ignored);

    auto alliot_outcomes = alliot_class_outcomes(classes.size());
    for (const auto& [key, pairing] : games.pairings) {
        if (pairing.games.empty()) continue;  // every game of it was broken
        PairingResult result;
        result.test = pairing.test;
        result.names = pairing.names;
        auto all_games = games_in(pairing, {true, true});
        result.actual = actual_score(all_games);
        result.games_outside_chains = pairing.games_outside_chains;
        MoveSelection selection{settings.per_colour, {true, true}};
        result.chains = engine_chains(pairing, selection);
        result.start = start_distribution(pairing, selection, classes);
        result.stationary = predict(result.chains, result.start, alliot_outcomes);
        if (results.class_outcomes)
            result.model = predict(result.chains, result.start, results.class_outcomes->wdl);
        result.evaluated = has_moves(result.chains);
        if (result.evaluated) {
            add_crossfit(result, pairing, classes, settings, results.fold_class_outcomes);
        } else {
            result.crossfit_unavailable = "no evaluated moves";
        }
        result.conformance = conformance(pairing);
        result.occupancy = class_occupancy(pairing);
        results.pairings.push_back(std::move(result));
    }
    results.crossfit = summarize_crossfit(results.pairings);
    return results;
}

}  // namespace wdl::markov
