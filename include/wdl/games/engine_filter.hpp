#pragma once

#include <memory>
#include <optional>
#include <string>

namespace re2 {
class RE2;
}

// Which engine's side of a game is read (--matchEngine, or --matchRev's revision in fishtest's
// names New-<sha>/Base-<sha>).
namespace wdl::games {

// The pattern of the engine filter: --matchEngine if given, else --matchRev; empty for none.
std::string engine_filter_pattern(const std::optional<std::string>& match_engine,
                                  const std::string& match_rev);

// The engine filter of a pattern, matched against whole names; none for an empty pattern.
// Throws wdl::Error for a pattern that does not compile.
std::unique_ptr<re2::RE2> compile_engine_filter(const std::string& pattern);

// The players of a game that an engine filter matches: one meaning for every program
// (docs/programs.md, "Which games and positions"). A name matches when the whole name does; a
// game lacking either name matches no player. No filter matches both.
struct MatchedPlayers {
    bool white = true, black = true;
    bool any() const { return white || black; }
};
MatchedPlayers matched_players(const re2::RE2* filter, const std::string& white,
                               const std::string& black);

}  // namespace wdl::games
