#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/games/engine_pairing.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/scale/paired_counter.hpp"
#include "wdl/scale/strength_model.hpp"

// Did a patch change the eval scale (scaleWDL, docs/comparison.md)? The two engines of a test,
// each fitted on its own moves of the same games, compared by a jackknife that leaves the same
// games out of both fits; and whether an engine's evals mean the same for the side ahead and
// the side behind.
namespace wdl::scale {

// The retained counts of one engine's positions in the pairings (pooled: game group g of every
// pairing is one group g), with their groups kept.
std::unique_ptr<fit::CountGrid> engine_grid(const std::vector<const PairingCounts*>& pairings,
                                            games::Role role, const fit::GridFilter& filter,
                                            const model::Normalization& normalization);

struct ScaleOptions {
    fit::GridFilter filter;
    fit::FitOptions fit;
    double confidence = 0.95;
    bool asymmetry = true;
    int folds = 10;  // of the held-out comparison of the asymmetric model
    int threads = 1;
};

// The options of a comparison that fits each engine as scoreWDL fits a count file (the filter,
// the mom target and the forms, started at the normalization's pawn value), with the asymmetry.
ScaleOptions scale_options_for(const fit::GridFilter& filter, int mom_target,
                               const model::CurveForm& a_form, const model::CurveForm& b_form,
                               const model::Normalization& normalization, double confidence,
                               int threads);

// One fit of some positions of one engine, with each constant's jackknife error (of these
// positions alone, from the replicates of the paired jackknife).
struct EngineFit {
    double positions = 0;               // retained
    std::optional<fit::FitResult> fit;  // none when the data could not be fitted
    std::string no_fit;                 // why not
    // NormalizeToPawnValue, spread, drawRateAtZero.
    std::vector<fit::ResampledEstimate> estimates;
};

// A figure of two fits with its paired interval, and the error it would have if the two fits
// were taken as independent (as compareWDL --fit takes two count files).
struct PairedFigure {
    fit::ResampledEstimate paired;
    double unpaired_error = 0;
};

// Log-loss per position of the strength model with a scale per side against the model with
// strength alone, on held-out games.
struct HeldOutDifference {
    double difference = 0, error = 0;  // with scales - strength alone; error: groups independent
    double positions = 0;
    int folds = 0;
};

// Whether the side ahead and the side behind of one engine read its evals alike, net of the
// pairing's strength term (strength_model.hpp): the engine's scale s of its evals above 0 and
// below 0, fitted with the strength term on both engines' positions. Ratios' intervals are
// exp(log r +- t se).
struct Asymmetry {
    double positions_ahead = 0, positions_behind = 0;     // retained, eval above / below 0
    std::optional<fit::ResampledEstimate> ahead, behind;  // s of each side
    std::optional<fit::ResampledEstimate> ratio;          // s_ahead / s_behind
    // Held out on folds of the game groups: the model with a scale per side (4 parameters
    // more) against the model with strength alone.
    std::optional<HeldOutDifference> held_out;
    std::string no_result;  // why some of it is missing
};

// The pairing's strength term: New's delta (Base's is -delta), the shift of the win and loss
// logits at every eval, and the Elo of New's expected score at eval 0 with it in New's model at
// its target mom (strength_elo).
struct Strength {
    fit::ResampledEstimate delta, elo;
};

struct ScaleComparison {
    std::string name;                  // "test <id>", "New-x vs Base-y", or "pooled ..."
    std::vector<std::string> tests;    // the pairings' test ids (or names)
    std::array<std::string, 2> names;  // by games::Role
    std::uint64_t games = 0;
    int groups = 0, replicates = 0;  // of the paired jackknife
    std::vector<std::string> failures;
    std::array<EngineFit, 2> engines;  // by games::Role
    // NormalizeToPawnValue New / Base, spread New / Base, drawRateAtZero New - Base; empty when
    // either engine has no fit or the jackknife has too few replicates (no_comparison).
    std::vector<PairedFigure> figures;
    std::string no_comparison;
    std::array<std::optional<Asymmetry>, 2> asymmetry;  // by games::Role, when asked for
    std::optional<Strength> strength;                   // with the asymmetry
    std::string no_strength;
};

// Two engines' retained counts (New's, then Base's) fitted and compared, their groups being the
// same games (group g of each holds that engine's positions of the same games), with the
// strength and asymmetry when asked for. Never throws for data that cannot be
// fitted.
ScaleComparison compare_engine_grids(const fit::CountGrid& new_grid,
                                     const fit::CountGrid& base_grid, const ScaleOptions& options);

// Fits each engine of the pairings on its own moves and compares them. Never throws for data
// that cannot be fitted: the comparison says why it has no figures.
ScaleComparison compare_scales(const std::string& name,
                               const std::vector<const PairingCounts*>& pairings,
                               const model::Normalization& normalization,
                               const ScaleOptions& options);

}  // namespace wdl::scale
