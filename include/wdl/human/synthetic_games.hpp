#pragma once

#include <cstdint>

#include "wdl/counts/human_counts.hpp"
#include "wdl/human/human_model.hpp"

// Human-games counts drawn from a known rating-aware model, as synthWDL draws engine games
// (synth/sampler.hpp): the truth against which the fit and its error bars are tested.
namespace wdl::human {

struct SyntheticHumanSettings {
    HumanModel model;
    std::uint64_t games = 2000;
    int positions_per_game = 20;  // each game has uniformly M/2 .. 3M/2 positions
    int groups = 32;
    std::uint64_t seed = 1;
    counts::SpeedClass speed = counts::SpeedClass::Rapid;
    // A game's ratings: the mean of the two normal around `level_mean`, their difference normal
    // with mean 0, each kept in 600 .. 2900 and drawn as the centre of its rating bin.
    double level_mean = 1500, level_sd = 350, difference_sd = 200;
    // Whether a game's positions alternate between its sides, as a real game's do: then every
    // other one is the opponent's to move, with the ratings swapped and the result reversed.
    bool alternate_sides = false;
};

// Each game's players and first position are drawn, its result from the model there; its other
// positions are drawn given that result (a position is accepted with the model's probability
// of the result from the view of the side to move), so every position's result follows the
// model while a game's positions share it. Positions come from synthWDL's game-like distribution
// (10 cp bins). A game falls into a group by a hash of its number. Deterministic for a seed.
counts::HumanCounts synthetic_human_counts(const SyntheticHumanSettings& settings);

}  // namespace wdl::human
