#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/wdl_data.hpp"

// The constants net trainers hard-code, fitted to the retained positions with their intervals
// (docs/training-data.md, "The trainers' constants"): one curve for every material, in the
// data's internal units.
namespace wdl::fit {

// The fits of one data set.
struct TrainerFit {
    // Stockfish's model with a constant a and b: win = 1 / (1 + exp((offset - x) / scaling)),
    // loss the same at -x; the maximum-likelihood fit of the W/D/L counts. nnue-pytorch's
    // out_offset/out_scaling (its in_offset/in_scaling for the net's output), bullet's win-rate
    // model's 270/380.
    double offset = 0, scaling = 0;
    // The one-parameter expected score 1 / (1 + exp(-x / score_scale)), fitted by least squares
    // to the game scores (1, 1/2, 0) as Texel tuning does: bullet's eval_scale. Texel's K of
    // 1 / (1 + 10^(-K x / 400)) is 400 / (score_scale ln 10).
    double score_scale = 0;
};

// Fits the constants to the data of every mom taken together. Throws wdl::Error when the data
// cannot determine them (no positions, a result missing, a fit that does not converge).
TrainerFit fit_trainer_constants(const std::vector<MomData>& data);

struct TrainerEstimate {
    std::string name;  // "offset", "scaling", "scoreScale", "texelK"
    double estimate = 0;
    // Of a jackknife over the groups, or for offset and scaling without groups the Fisher
    // information's (positions taken as independent, which understates it).
    std::optional<double> standard_error, low, high;
};

struct TrainerConstants {
    std::vector<TrainerEstimate> estimates;  // offset, scaling, scoreScale, texelK
    int groups = 0;                          // of the jackknife; 0 without groups
    int failed_refits = 0;  // leave-one-out refits that did not converge (left out); with fewer
                            // than 2 left, no interval
    double confidence = 0.95;
};

// The constants of `data`, with jackknife intervals over the groups of `grouped` when given
// (one refit leaving out each group in turn, on `threads` threads).
TrainerConstants trainer_constants(const std::vector<MomData>& data, const GroupedData* grouped,
                                   int threads = 1);

// The printed section: each constant with its interval, in the form each trainer takes.
std::string trainer_constants_report(const TrainerConstants& constants);
nlohmann::ordered_json trainer_constants_json(const TrainerConstants& constants);

}  // namespace wdl::fit
