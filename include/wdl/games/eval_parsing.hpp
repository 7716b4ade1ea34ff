#pragma once

#include <limits>
#include <optional>
#include <string_view>

#include "wdl/counts/position_key.hpp"
#include "wdl/util/enum_names.hpp"

namespace wdl::games {

// How a decimal pawn value such as "-0.53" becomes centipawns.
enum class EvalParsing {
    Exact,   // from the decimal digits, rounded half away from zero: -0.53 -> -53
    Legacy,  // as the original scanner: int(100.0f * float(token)), truncated: -0.53 -> -52
};
inline constexpr std::array<util::EnumName<EvalParsing>, 2> kEvalParsingNames = {{
    {EvalParsing::Exact, "exact"},
    {EvalParsing::Legacy, "legacy"},
}};

inline constexpr int kMateScore = counts::kMateEval;
inline constexpr int kMaxScore = counts::kMaxEval;

// The evaluation carried by an engine comment from a fishtest, cutechess, fastchess or
// OpenBench PGN ("+0.57/17 0.52s", "+0.57 17/28 583 363004", "-M4/9 0.1s"), in centipawns
// from the mover's point of view; mates are +-kMateScore. No value for "book", for a
// comment without a space or '/' (exact mode: or other whitespace) after its first token, for
// a token that is not a number, and in exact mode for a number without a decimal point.
std::optional<int> comment_eval(std::string_view comment, EvalParsing parsing);

// comment_eval for the scanner's hot path: the value, or kNoEval. An int comes back in a
// register, where g++ assembles a std::optional<int> in memory and the caller's read of it
// then waits for the two stores.
inline constexpr int kNoEval = std::numeric_limits<int>::min();
int comment_eval_value(std::string_view comment, EvalParsing parsing);

// Whether a comment's first token is a number without a decimal point ("12/17 41 40000"): in
// exact mode such a comment carries no eval, and the scan counts it.
bool starts_with_bare_integer(std::string_view comment);

// The value of a lichess "[%eval 0.57]" or "[%eval #-3]" annotation in the comment, in
// centipawns from White's point of view; mates are +-kMateScore.
std::optional<int> lichess_eval(std::string_view comment, EvalParsing parsing);

// Parses a decimal pawn value ("+1.05", "-0.5", "3") into centipawns clamped to
// +-kMaxScore; nullopt if the token is not such a number.
std::optional<int> pawns_to_centipawns(std::string_view token, EvalParsing parsing);

}  // namespace wdl::games
