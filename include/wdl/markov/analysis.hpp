#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wdl/markov/chain.hpp"
#include "wdl/markov/collector.hpp"
#include "wdl/markov/outcomes.hpp"

// From what was read about a pairing's games to its chains, predictions, actual score,
// cross-fit and conformance figures (docs/markov.md).
namespace wdl::markov {

// Which of the collected moves make a matrix.
struct MoveSelection {
    bool per_colour = false;                     // separate matrices for White and Black
    std::array<bool, kFolds> folds{true, true};  // the folds whose games count
};

// The matrices of one engine in a pairing, each from the engine's own view: as White and as
// Black (the same matrix when the colours are pooled).
struct EngineChain {
    TransitionMatrix as_white, as_black;
    Matrix counts_as_white, counts_as_black;  // the moves they were estimated from
};

// The engines' matrices of a pairing, by Role. Empty rows of an engine take the row of both
// engines' moves from that class (see estimate_transitions).
std::array<EngineChain, 2> engine_chains(const PairingTally& pairing,
                                         const MoveSelection& selection);

// Alliot's prediction: the chain of White's matrix times Black's mirrored matrix, in White's
// view, from the start distribution; its limit weighs the classes' W/D/L.
struct ChainPrediction {
    Wdl new_as_white, new_as_black;  // New's view
    Wdl overall;  // the mean of the two colours (each opening is played with both)
    std::vector<double> limit_new_white, limit_base_white;  // the chains' limits, White's view
    bool unique = true;  // both chains have a single closed class: the limit is the stationary
                         // vector whatever the start
};

ChainPrediction predict(const std::array<EngineChain, 2>& chains, const std::vector<double>& start,
                        const std::vector<Wdl>& class_outcomes);

// Where the chains start: the class, in White's view, of each game's first evaluated position
// in the selected folds; the class of eval 0 if there is none.
std::vector<double> start_distribution(const PairingTally& pairing, const MoveSelection& selection,
                                       const ClassScheme& classes);

// The games' actual score for New with its standard error. Games are clustered by opening
// (fishtest plays each opening twice, colours swapped): the error is then the pentanomial one
// over game pairs (clusters of other sizes count alike); where openings repeat too often to
// pair games (more than 8 games per opening on average, e.g. all from the start position), every
// game is its own cluster: the trinomial error.
struct ActualScore {
    std::uint64_t games = 0;
    std::uint64_t wins = 0, draws = 0, losses = 0;  // New's
    Wdl shares;
    double score = 0;
    double standard_error = 0;  // NaN with fewer than 2 clusters
    bool paired = false;        // clustered by opening (pentanomial)
    std::uint64_t pairs = 0, singles = 0, larger_groups = 0, openings = 0;

    // Games in opening pairs make the error pentanomial; single games alone, trinomial.
    bool pentanomial() const { return paired && pairs > 0; }
    std::string error_basis() const;  // "pentanomial, 80 opening pairs" or "trinomial, ..."
};

ActualScore actual_score(std::span<const GameRecord> games);
// The games of the selected folds.
std::vector<GameRecord> games_in(const PairingTally& pairing,
                                 const std::array<bool, kFolds>& folds);

// The logistic Elo difference of a score: -400 log10(1 / score - 1) (infinite at 0 and 1).
double elo_of_score(double score);

// The 95% interval of a normal estimate: estimate +- 1.96 standard errors.
inline constexpr double kNormal975 = 1.959963984540054;

// One direction of the cross-fit: chains built on the training fold predict the other.
struct CrossFitRow {
    int training_fold = 0;
    std::uint64_t training_games = 0, training_openings = 0;
    double stationary = 0;        // Alliot's score
    std::optional<double> model;  // the model-aware score, when a model is at hand
    double baseline = 0;          // the training fold's actual score
    ActualScore held_out;
};

// Conformance of one engine: the drop = own eval - the opponent's next eval, overall and by
// the class of the own eval.
struct Conformance {
    DropTally overall;
    std::vector<DropTally> by_class;
};
std::array<Conformance, 2> conformance(const PairingTally& pairing);

// Moves made from each class, by Role (both colours and folds).
std::array<std::vector<std::uint64_t>, 2> class_occupancy(const PairingTally& pairing);

}  // namespace wdl::markov
