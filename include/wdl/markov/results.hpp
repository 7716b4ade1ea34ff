#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "wdl/markov/analysis.hpp"
#include "wdl/markov/collector.hpp"
#include "wdl/markov/outcomes.hpp"

// The whole analysis of the collected games: every pairing's chains, predictions, actual
// score, cross-fit and conformance, and the cross-fit over all pairings (docs/markov.md).
namespace wdl::markov {

struct AnalysisSettings {
    bool per_colour = false;
    // The model whose W/D/L the classes carry; none: fit one to the games (and, for the
    // cross-fit, one to each fold).
    std::optional<EvalOutcomes> model;
};

// The W/D/L per class under a model, as used for one set of games.
struct ClassOutcomes {
    std::string model;     // where the model comes from
    std::vector<Wdl> wdl;  // by class
};

struct PairingResult {
    std::string test;                        // fishtest test id, or empty
    std::array<std::string, 2> names;        // by Role
    ActualScore actual;                      // over every game with a result
    std::uint64_t games_outside_chains = 0;  // of those, games the chains could not read
    bool evaluated = false;  // some move had both evals: there are chains to predict with
    std::array<EngineChain, 2> chains;
    std::vector<double> start;
    ChainPrediction stationary;            // Alliot's gain vector
    std::optional<ChainPrediction> model;  // the model's W/D/L per class
    std::vector<CrossFitRow> crossfit;     // one row per direction that could be made
    std::string crossfit_unavailable;      // why there is no row, if so
    std::array<Conformance, 2> conformance;
    std::array<std::vector<std::uint64_t>, 2> occupancy;  // moves made from each class
};

// Mean absolute error and correlation of a prediction against the held-out actual scores.
struct PredictionQuality {
    std::size_t points = 0;
    double mean_absolute_error = 0;
    double correlation = 0;  // Pearson; NaN with fewer than 3 points or no spread
};

// A prediction's absolute error minus the baseline's, averaged per pairing (its two
// directions) and then over pairings, with the standard error of that mean.
struct ErrorDifference {
    std::size_t pairings = 0;
    double mean = 0;
    double standard_error = 0;  // NaN with fewer than 2 pairings
};

struct CrossFitSummary {
    // The predictions against the actual scores of the very games the chains were built from,
    // one point per pairing: what the cross-fit is to be compared with.
    PredictionQuality in_sample_stationary;
    std::optional<PredictionQuality> in_sample_model;
    std::size_t pairings = 0;  // with at least one row
    PredictionQuality stationary, baseline;
    std::optional<PredictionQuality> model;
    ErrorDifference stationary_vs_baseline;
    std::optional<ErrorDifference> model_vs_baseline;
    // The mean absolute error that even the true scores would show against the held-out
    // actual scores: mean of sqrt(2 / pi) * their standard errors.
    double noise_floor = 0;
    std::string verdict;  // one plain sentence
};

struct MarkovResults {
    std::vector<PairingResult> pairings;          // in the order of their keys
    std::optional<ClassOutcomes> class_outcomes;  // from all games; none if no model
    std::string model_unavailable;                // why, if none
    std::array<std::optional<ClassOutcomes>, kFolds> fold_class_outcomes;
    CrossFitSummary crossfit;
};

MarkovResults analyse(const CollectedGames& games, const ClassScheme& classes,
                      const AnalysisSettings& settings);

// The summary of cross-fit rows of several pairings (exposed for tests).
CrossFitSummary summarize_crossfit(const std::vector<PairingResult>& pairings);

}  // namespace wdl::markov
