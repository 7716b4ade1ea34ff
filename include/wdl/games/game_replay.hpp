#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "wdl/chess/board.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/fix_fen.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/pgn/reader.hpp"

// A game replayed move by move, once for every analysis of games (counting, chains, endgames,
// annotation): the tags, the start position, the SAN replay with its broken games, the eval of
// each position and how the game ended. An analysis sees only what it asks for, through hooks
// resolved at compile time, so that the scanner's hot path has no virtual call of its own.
namespace wdl::games {

// How games are replayed.
struct ReplayRules {
    EvalParsing eval_parsing = EvalParsing::Exact;
    const FixFenTable* fix_fen = nullptr;  // --fixFENsource; null leaves FENs as they are
    // An unterminated game (cut short, or tags without moves) still reaches finish_game, for an
    // analysis that keeps every game (annotation copies text); otherwise it is a broken game.
    bool finish_unterminated = false;
};

// What an analysis answers to a game's tags.
struct TagVerdict {
    bool read = true;     // false: the game's moves are not read
    std::string warning;  // a broken record's warning line (empty for a rule such as no result)
};

// A mainline move about to be played from the board the analysis is shown.
struct ReplayedMove {
    const chess::Move& move;
    std::string_view san;
    std::string_view comment;  // the first comment after the move, without braces
    int ply;                   // 1 for the game's first move
};

// Where a position's eval was written: in the comment of the move played from it (an engine's
// score of the line its move starts), or of the move that led to it (a lichess [%eval]).
enum class EvalComment : std::uint8_t { OfMoveFrom, OfMoveTo };

// The warning lines of broken games, spelled here for every analysis.
std::string unsupported_variant_warning(std::string_view variant);
std::string invalid_fen_warning(std::string_view fen);
std::string illegal_move_warning(std::string_view san, int ply);
// The warning of a game its tags reject for `reason` (only an unsupported variant is a broken
// record; a missing result or an excluded termination is a rule).
std::string rejection_warning(const GameTags& tags, GameSkipReason reason);

// The hooks an analysis gives. Required:
//   void begin_game(std::size_t offset)          a game starts at this offset of the text
//   TagVerdict accept(const GameTags& tags)      whether its moves are read
//   void skip_game(GameSkipReason reason)        the replay found the record broken
//   void finish_game(const chess::Board& board)  the game was read to its end; its final board
// Optional (asked for by declaring them):
//   void start_game(const chess::Board& board)              the start position is set up
//   void see_move(const chess::Board& board, const ReplayedMove& move)   before it is played
//   void see_position(const chess::Board& board, int eval, int plies, EvalComment comment)
//       a position with an eval from its mover's view; `plies` were played before it. An
//       engine's comment scores the position before its move, a lichess [%eval] the one after
//       it (turned from White's view): the rule lives here only.
//   void see_comment_without_eval(std::string_view comment)    a move comment with no eval
template <class Analysis>
class GameReplay final : public pgn::Visitor {
  public:
    GameReplay(const ReplayRules& rules, Analysis& analysis) : rules_(rules), analysis_(analysis) {
        tags_.exact_termination_letter = rules_.eval_parsing == EvalParsing::Legacy;
    }

    // The text read next is a new chunk: games are numbered from it, its problems listed anew.
    void begin_chunk() {
        games_ = 0;
        problems_.clear();
    }
    std::uint64_t games() const { return games_; }
    const ProblemList& problems() const { return problems_; }

    void begin_game(std::size_t offset) override {
        ++games_;
        tags_.clear();
        reading_ = false;
        ply_ = 0;
        analysis_.begin_game(offset);
    }

    void tag(std::string_view name, std::string_view value) override { tags_.read(name, value); }

    bool begin_movetext() override {
        TagVerdict verdict = analysis_.accept(tags_);
        if (!verdict.read) {
            if (!verdict.warning.empty()) problems_.add(games_ - 1, std::move(verdict.warning));
            return false;
        }
        if (!tags_.set_up(board_, rules_.fix_fen))
            return skip(GameSkipReason::InvalidFen, invalid_fen_warning(tags_.fen));
        reading_ = true;
        if constexpr (kStartsGames) analysis_.start_game(board_);
        return true;
    }

    bool move(std::string_view san, std::string_view comment) override {
        if (!reading_) return false;
        ++ply_;
        int eval = kNoEval;
        if constexpr (kSeesPositions) {
            eval = comment_eval_value(comment, rules_.eval_parsing);
            if (eval != kNoEval) {
                analysis_.see_position(board_, eval, ply_ - 1, EvalComment::OfMoveFrom);
            } else if constexpr (kSeesCommentsWithoutEval) {
                if (!comment.empty()) analysis_.see_comment_without_eval(comment);
            }
        }
        auto move = board_.parse_san(san);
        if (!move) return skip(GameSkipReason::IllegalMove, illegal_move_warning(san, ply_));
        if constexpr (kSeesMoves)
            analysis_.see_move(board_, ReplayedMove{*move, san, comment, ply_});
        board_.play(*move);
        if constexpr (kSeesPositions) {
            if (eval == kNoEval && !comment.empty()) {
                if (auto white_eval = lichess_eval(comment, rules_.eval_parsing))
                    analysis_.see_position(
                        board_,
                        board_.side_to_move() == chess::Color::White ? *white_eval : -*white_eval,
                        ply_, EvalComment::OfMoveTo);
            }
        }
        return true;
    }

    void end_game(bool terminated) override {
        if (!reading_) return;
        if (!terminated && !rules_.finish_unterminated) {
            auto unterminated = unterminated_game(ply_);
            skip(unterminated.reason, unterminated.warning);
            return;
        }
        reading_ = false;
        analysis_.finish_game(board_);
    }

  private:
    // The optional hooks the analysis gives (see above).
    static constexpr bool kStartsGames = requires(Analysis & analysis, const chess::Board& board) {
        analysis.start_game(board);
    };
    static constexpr bool kSeesMoves =
        requires(Analysis & analysis, const chess::Board& board, const ReplayedMove& move) {
        analysis.see_move(board, move);
    };
    static constexpr bool kSeesPositions =
        requires(Analysis & analysis, const chess::Board& board) {
        analysis.see_position(board, 0, 0, EvalComment::OfMoveFrom);
    };
    static constexpr bool kSeesCommentsWithoutEval =
        requires(Analysis & analysis, std::string_view comment) {
        analysis.see_comment_without_eval(comment);
    };

    // Drops the game, listed with its warning if it has one, and tells the analysis.
    bool skip(GameSkipReason reason, std::string warning) {
        reading_ = false;
        analysis_.skip_game(reason);
        if (!warning.empty()) problems_.add(games_ - 1, std::move(warning));
        return false;
    }

    const ReplayRules& rules_;
    Analysis& analysis_;
    GameTags tags_;
    chess::Board board_;
    ProblemList problems_;
    std::uint64_t games_ = 0;  // begun since the chunk began
    bool reading_ = false;
    int ply_ = 0;
};

}  // namespace wdl::games
