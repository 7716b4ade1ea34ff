#pragma once

#include <cstddef>
#include <string_view>

namespace wdl::pgn {

// Receives the games of a PGN text in order. Views passed to the callbacks are valid only
// during the call.
class Visitor {
  public:
    virtual ~Visitor() = default;
    // A game starts at byte `offset` of the text handed to read_games.
    virtual void begin_game(std::size_t offset) = 0;
    virtual void tag(std::string_view name, std::string_view value) = 0;
    // Called once per game after its tags (also for a game without tags). Return false to
    // receive no moves of this game (its end is still reported).
    virtual bool begin_movetext() = 0;
    // One mainline move as written (move-number prefix removed) with the first comment that
    // follows it, without braces and leading blanks (empty if none). Return false to receive
    // no further moves of this game.
    virtual bool move(std::string_view san, std::string_view comment) = 0;
    // `terminated`: the movetext ended with a result token (1-0, 0-1, 1/2-1/2, *). A game
    // cut short by the end of the text or by the next tag section is not terminated.
    virtual void end_game(bool terminated) = 0;
};

// Reads every game of `text`. A game's tag section is its tag lines up to the first line that
// is not one (a blank line ends it; escape lines starting '%' are passed over); a section
// without movetext is a game of its own. Never fails: unknown bytes are skipped, an unbalanced
// comment or variation ends at the next line that starts a tag section, and the reader always makes
// progress, so hostile input costs linear time.
void read_games(std::string_view text, Visitor& visitor);

// The offset of the start of the last tag section in `text` that begins after `min_offset`
// (a line `[Name "...` whose preceding line, escape lines passed over, does not continue a tag
// section: it is blank or movetext), or npos. Used to cut a decompressed stream into chunks of
// whole games: the reader starts a game at every such line, so the chunks read as the whole.
std::size_t find_last_game_start(std::string_view text, std::size_t min_offset = 0);

// The offset of the first tag section that begins at or after `from` (by the rule of
// find_last_game_start), or npos: games cut apart one by one, for a look at each one's raw
// text before it is read.
std::size_t find_next_game_start(std::string_view text, std::size_t from);

}  // namespace wdl::pgn
