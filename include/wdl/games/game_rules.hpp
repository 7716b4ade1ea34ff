#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/counts/position_key.hpp"
#include "wdl/games/fix_fen.hpp"

// Which games count and where they start (docs/programs.md, "Which games and positions"): the
// one home of these rules for every analysis of games (counting, chains, ...).
namespace wdl::games {

// Why a game contributed nothing.
enum class GameSkipReason : std::uint8_t {
    NoResult,        // no Result tag, or "*"
    BadTermination,  // time forfeit, abandoned, stalled connection, illegal move, unterminated
    InvalidFen,
    IllegalMove,  // a move that cannot be played: illegal, ambiguous or garbled
    Incomplete,   // movetext without a final result token (e.g. a truncated file)
    NoMoves,      // a tag section without movetext (a file of headers, or one cut after tags)
    UnsupportedVariant,  // a Variant tag other than standard chess or Chess960 (crazyhouse, ...)
};
inline constexpr std::size_t kSkipReasonCount = 7;
const char* describe(GameSkipReason reason);

// Why a human game (scoreWDLstat --human) is left out before its moves are read, besides the
// reasons above: games without any lichess [%eval] (seen in the raw text, first), then by tags.
enum class HumanSkipReason : std::uint8_t {
    NoEval,              // not one "[%eval" in the game's text: most games of a lichess dump
    Variant,             // a Variant tag other than Standard (or From Position)
    SetUpPosition,       // SetUp "1" or a FEN tag: not from the start position
    Bot,                 // WhiteTitle or BlackTitle "BOT": a program, not a person
    Unrated,             // an Event without "Rated", or a rating missing, "?" or beyond 0..6399
    UnknownTimeControl,  // a TimeControl missing or of another form than "600+5", "180", "-"
};
inline constexpr std::size_t kHumanSkipReasonCount = 6;
const char* describe(HumanSkipReason reason);

// Why a game whose movetext did not end in a result token is skipped, and the warning: a tag
// section without moves (none played), or a game cut short.
struct UnterminatedGame {
    GameSkipReason reason;
    const char* warning;
};
UnterminatedGame unterminated_game(int plies);

// The tags of one game that decide whether it counts, its players and its start position.
struct GameTags {
    std::string white, black;
    std::string fen;  // empty: the standard start position
    bool chess960 = false;
    std::optional<counts::Outcome> white_outcome;  // from a Result of 1-0, 0-1 or 1/2-1/2
    bool excluded_termination = false;
    // The Termination tag says the game was adjudicated, or lost on time (either way without
    // case, by prefix): how a report tells how the games ended.
    bool adjudicated = false, time_forfeit = false;
    std::string unsupported_variant;  // the Variant tag's value, if not a chess we play
    // What tells a human game (scoreWDLstat --human): whether it is rated and standard chess
    // from the start position between people, the players' ratings (none for "?" or no
    // tag), and the TimeControl tag as written.
    bool rated = false, set_up_tag = false, bot = false, nonstandard_variant = false;
    std::optional<int> white_elo, black_elo;
    std::string time_control;
    // How Termination is matched (kept by clear()): without case and by prefix ("Time
    // forfeit", "Illegal Move (c7c5)"), or, as the original, exactly.
    bool exact_termination_letter = false;

    void clear();
    // Keeps the value of a tag that matters here; other tags are ignored.
    void read(std::string_view name, std::string_view value);
    // Why the tags reject the game (an unsupported variant, no result, an excluded
    // termination), or nothing.
    std::optional<GameSkipReason> rejection() const;
    // Why the tags leave a human game out (HumanSkipReason other than NoEval), or nothing;
    // before rejection(), whose rules (a result, the termination) hold for human games too.
    std::optional<HumanSkipReason> human_rejection() const;
    // Sets the board to the game's start position, its counters restored through `fix_fen`
    // when given. False for an invalid FEN; throws wdl::Error for a FEN that `fix_fen` lacks.
    bool set_up(chess::Board& board, const FixFenTable* fix_fen) const;
};

// The key the scanner counts for the position on `board` (the mover to move) whose result
// for White is `white_outcome`, with the mover's eval already binned.
inline counts::PositionKey counted_key(const chess::Board& board, counts::Outcome white_outcome,
                                       int binned_eval) {
    counts::PositionKey key;
    key.result = board.side_to_move() == chess::Color::White ? white_outcome
                                                             : counts::opposite(white_outcome);
    key.move = board.fullmove_number();
    key.material = board.material();
    key.eval = binned_eval;
    return key;
}

// How a position of a game becomes the key counted for it, for every counter of games (the
// scanner, scaleWDL's and markovWDL's): positions after full move `max_counted_move` are not
// counted, a mate keeps its score, other evals are rounded to multiples of `bin_width`.
class CountedKeyRules {
  public:
    CountedKeyRules(int max_counted_move, int bin_width);

    // The packed key of the position on `board` (the mover to move) whose result for White is
    // `white_outcome`, with the mover's eval; none after the counted moves.
    std::optional<std::uint64_t> key_of(const chess::Board& board, counts::Outcome white_outcome,
                                        int eval) const {
        if (board.fullmove_number() > max_counted_move_) return std::nullopt;
        return counts::pack_key(counted_key(board, white_outcome, binned(eval)));
    }
    int binned(int eval) const {
        if (eval == counts::kMateEval || eval == -counts::kMateEval) return eval;
        if (eval < -counts::kMaxEval || eval > counts::kMaxEval)
            return counts::bin_eval(eval, bin_width_);
        return binned_scores_[std::size_t(eval + counts::kMaxEval)];
    }

  private:
    int max_counted_move_, bin_width_;
    // bin_eval of every eval in [-kMaxEval, kMaxEval], at index eval + kMaxEval: the division
    // it needs is measurable on the scanner's hot path.
    std::vector<int> binned_scores_;
};

}  // namespace wdl::games
