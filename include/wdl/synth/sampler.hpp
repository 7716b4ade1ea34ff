#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/stats/random.hpp"

// Count files drawn from a known model (synthWDL, docs/programs.md): the ground truth for
// testing the fitter and its error bars, and for planning how many games a fit needs.
namespace wdl::synth {

// Stockfish 18's model from the registry of published models (the model whose as[] is
// scoreWDL's default --NormalizeData): the default truth.
model::WdlModel stockfish_model();

// A position before its result is drawn: move, material and the eval as the scanner records it
// (displayed centipawns from the side to move's view, binned).
struct PositionShape {
    int move = 0;
    int material = 0;
    int eval = 0;
};

// Where positions' (move, material, eval) come from.
class PositionSource {
  public:
    virtual ~PositionSource() = default;
    virtual PositionShape draw(stats::Random& random) const = 0;
};

// A made-up but game-like distribution (docs/programs.md, synthWDL): with u uniform in [0, 1)
// (how far into its game the position is), a first move s uniform in 5..12 after the book and
// a game length L = 20 + 45 E full moves (E exponential with mean 1):
//   move = min(200, s + floor(u L)),
//   material = round(78 - (78 - m_end) u^1.3 + 1.5 N) in [0, 78], m_end uniform in [4, 60),
//   cp = round((25 + 225 u^2) T3) clamped to +-1000 and binned as the scanner bins it,
// with N standard normal and T3 Student's t with 3 degrees of freedom.
class SyntheticPositions final : public PositionSource {
  public:
    explicit SyntheticPositions(int bin_width) : bin_width_(bin_width) {}
    PositionShape draw(stats::Random& random) const override;

  private:
    int bin_width_;
};

// The (move, material, eval) of a count file's keys (of any result, of every group), drawn in
// proportion to their counts. Throws wdl::Error for a file that cannot be read or has no counts.
class CountFilePositions final : public PositionSource {
  public:
    explicit CountFilePositions(const std::filesystem::path& file);
    PositionShape draw(stats::Random& random) const override;

  private:
    std::vector<PositionShape> shapes_;
    std::vector<std::uint64_t> cumulative_;  // counts of shapes_[0..i]
};

struct SamplerSettings {
    model::WdlModel model = stockfish_model();
    // How the engine displays its internal evals: the results are drawn at the internal eval
    // that scoreWDL computes from the recorded one with this normalization.
    model::Normalization normalization =
        model::Normalization::from_json(model::kDefaultNormalizeData);
    std::uint64_t positions = 1000000;
    std::uint64_t seed = 1;
    // Games: positions that share one result (see sample_counts); else independent positions.
    bool games = false;
    int positions_per_game = 100;  // mean; each game has uniformly M/2 .. 3M/2 positions
    int groups = 0;                // > 0: the counts are split into groups by game
    int threads = 1;               // the counts do not depend on it
};

struct SampledCounts {
    counts::PositionCounts counts;
    std::uint64_t positions = 0, games = 0;
};

// The model's W, D, L probabilities at a recorded position: at the internal eval scoreWDL
// computes with the normalization, and the position's material or move (clamped as the model
// clamps it, if it does). Throws wdl::Error for a model of the ply, and where the model is not
// a distribution (W + L > 1).
std::array<double, 3> outcome_probabilities(const model::WdlModel& model,
                                            const model::Normalization& normalization,
                                            const PositionShape& shape);

// Draws the positions, deterministic for a seed. Independent positions: each result is drawn
// from the model at its position. Games: the first position's result is drawn from the model,
// and the game's other positions are drawn from the source given that result (a draw is
// accepted with the model's probability of the result there), so that every position's result
// follows the model exactly while all positions of a game share one result. A game is seen
// from one side: the model is symmetric (L(x) = W(-x)), so a position of the other side, its
// eval and result both reversed, would weigh the same in the fit, and no symmetry of the
// source is needed. Each game (each position, when independent) falls into a group by a hash
// of its number.
SampledCounts sample_counts(const SamplerSettings& settings, const PositionSource& source);

}  // namespace wdl::synth
