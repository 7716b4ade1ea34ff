#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "wdl/util/enum_names.hpp"

// Position and move symbols from expected scores (annotateWDL, docs/annotation.md), after
// Konrod's article "Evaluation Relevance Reduction". Its relevance-reduced evaluation difference
// between two evals is, up to the constant 2 x_0_5 / ln 2, the difference of its probabilistic
// game results; so every range of the article is a range of expected score, and a fitted model
// that gives the expected score directly takes its place.
namespace wdl::annotate {

// Konrod's ranges of position symbols: `Konrod9` his 9 ranges anchored at the win-draw
// balance (moderate advantage ends at x_0_5, clear at 2 x_0_5), `Equal9` his 9 ranges of equal
// size, `Seven` his 7 ranges without the extreme symbols.
enum class PositionScheme { Konrod9, Equal9, Seven };
inline constexpr std::array<util::EnumName<PositionScheme>, 3> kPositionSchemeNames = {{
    {PositionScheme::Konrod9, "konrod9"},
    {PositionScheme::Equal9, "equal9"},
    {PositionScheme::Seven, "seven"},
}};

std::string_view position_scheme_name(PositionScheme scheme);
std::optional<PositionScheme> position_scheme_from_name(std::string_view name);

// The expected scores for White at which the symbols change, upward from 0.5: where the
// balanced range ends, then the slight, moderate and clear advantages (Seven: 3 bounds; the
// last range is then "clear"). Konrod9: 0.55, 0.65, 0.75, 0.875 (Konrod's bounds
// ln(10/9) x_0_5 / ln 2, ln(10/7) x_0_5 / ln 2, x_0_5 and 2 x_0_5 under his probabilistic game
// result); Equal9: 5/9, 6/9, 7/9, 8/9; Seven: 4/7, 5/7, 6/7. Black's bounds mirror them.
std::array<double, 4> position_bounds(PositionScheme scheme);
int bound_count(PositionScheme scheme);

// The NAG of a position whose expected score for White is `white_score`: $10 (=), $14/$15
// (+= / =+), $16/$17 (+/- / -/+), $18/$19 (+- / -+), $20/$21 (++- / --+). A score on a bound
// takes the range above it.
int position_nag(double white_score, PositionScheme scheme);

// Drops of the mover's expected score that make a move dubious ($6, ?!), a mistake ($2, ?) and
// a blunder ($4, ??); the same gains of the played move over the second best make it
// interesting ($5, !?), good ($1, !) and brilliant ($3, !!).
struct MoveThresholds {
    double dubious = 0.05, mistake = 0.10, blunder = 0.20;
};

// Konrod's "economical" scheme of 7 equal ranges: 1/14, 3/14, 5/14 of the whole.
MoveThresholds relevance_thresholds();

// The NAG of a move whose mover's expected score dropped by `drop` (0: no symbol).
int move_nag(double drop, const MoveThresholds& thresholds);
// The NAG of a move that beat the second-best by `gain` in expected score (0: no symbol).
int good_move_nag(double gain, const MoveThresholds& thresholds);

// The symbol of a NAG as people write it ("+/=", "??", ...).
std::string_view nag_symbol(int nag);

}  // namespace wdl::annotate
