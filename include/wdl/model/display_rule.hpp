#pragma once

#include <optional>
#include <string>
#include <string_view>

// How an engine displayed a model's evals and what eval it fed the curve: Stockfish's eras
// (docs/model.md, "Displayed evals, era by era").
namespace wdl::model {

struct DisplayRule {
    // The constant the engine divided 100 v by, in C++ integer division (truncated toward
    // zero): PawnValueEg (SF 12 to 15) or NormalizeToPawnValue (SF 15.1 to 16.1). None: the
    // engine displays round(100 v / a(mom)) (SF 17 on, and wdlfit's fitted models).
    std::optional<int> pawn_divisor;
    // The curve's input is clamped to +-this, in the coefficients' units as the source writes
    // it (1000 or 2000 centipawns of PawnValueEg, 4000 internal). None: not clamped.
    std::optional<double> eval_limit;

    bool operator==(const DisplayRule&) const = default;
};

// The bound of the clamp in a source's eval line, "std::clamp(double(v), -4000.0, 4000.0)" ->
// 4000; nothing if the line has no clamp.
std::optional<double> eval_limit_of(std::string_view eval_expression);

// The rule of a Stockfish model from its source's facts: its NormalizeToPawnValue constant
// where there was one, else a(mom); the clamp of its eval line. A model that took
// 100 v / PawnValueEg divides by that instead (see use_pawn_value_eg).
DisplayRule stockfish_display_rule(std::optional<int> normalize_constant,
                                   const std::optional<std::string>& eval_expression);

// "100 v / 361, truncated", "100 v / a(mom), rounded": the rule in words, for printed lines.
std::string display_rule_text(const DisplayRule& rule);

}  // namespace wdl::model
