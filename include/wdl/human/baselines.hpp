#pragma once

#include <array>

#include "wdl/human/human_model.hpp"
#include "wdl/model/wdl_model.hpp"

// What people use today to turn an eval into chances, as W/D/L of the side to move at its
// displayed eval `cp` (docs/human-games.md, "The comparison").
namespace wdl::human {

// lichess's Win% as an expected score in [0, 1] (annotate/lichess_accuracy.hpp). It gives no
// draw rate: as W/D/L it keeps its expected score S and takes the draw rate `draw_rate` (the
// band's, from the games it is fitted on) where it can, D = min(draw_rate, 2 min(S, 1 - S)),
// W = S - D / 2, L = 1 - S - D / 2.
double lichess_expected_score(double cp);
std::array<double, 3> lichess_wdl(double cp, double draw_rate);

// Leela Chess Zero's Elo-dependent sharpness (lc0, src/search/classic/params.cc,
// SimplifiedWDLRescaleParams, the WDLCalibrationElo option): a rating E is first taken to lc0's
// "game pair" Elo E' = E + 125 ln(1 + exp((2737 - E) / 250)), then
// s(E) = 1 / (1/15 + exp(E' / 425 - 6.75)).
double lc0_game_pair_elo(double elo);
double lc0_sharpness(double elo);
// lc0's eval offset of a rating, mu(E) = -ln(10) / 200 * 15 * 425 * ln(1 + exp(6.75 - E'/425) / 15)
// (the integral of s over Elo, so that mu(E) - mu(O) is the rating difference's shift).
double lc0_mu_offset(double elo);
// W/D/L by lc0's WDLRescale (search.cc) for two players: the eval mu = cp / 100 (lc0's WDL_mu
// reading of a Stockfish-like eval, model/lc0_wdl.hpp) moved by mu(R) - mu(O), the sharpness
// sqrt((s(R)^2 + s(O)^2) / 2), W = logistic((mu - 1) / s), L = logistic((-mu - 1) / s).
std::array<double, 3> lc0_wdl(double cp, double rating, double opponent_rating);

// Stockfish's model at a position: the displayed cp taken to its internal eval (a(material) is
// +1.00, as NormalizeToPawnValue displays it), and its W/D/L there.
std::array<double, 3> stockfish_wdl(const model::WdlModel& model, double cp, double material);

}  // namespace wdl::human
