#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/counts/grouped_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/fix_fen.hpp"
#include "wdl/games/game_replay.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/scan/game_grouping.hpp"

namespace re2 {
class RE2;
}

namespace wdl::scan {

// What decides which positions of a game are counted, and how.
struct CountingRules {
    games::EvalParsing eval_parsing = games::EvalParsing::Exact;
    int bin_width = 5;
    const re2::RE2* engine_filter = nullptr;      // --matchEngine; null counts both sides
    const games::FixFenTable* fix_fen = nullptr;  // --fixFENsource; null leaves FENs as they are
    int max_counted_move = 200;                   // positions after this full move are not counted
    const GameGrouping* grouping = nullptr;       // --groups; null counts without groups
};

struct GameTally {
    std::uint64_t games_read = 0;
    std::uint64_t games_accepted = 0;
    std::uint64_t positions = 0;
    std::array<std::uint64_t, games::kSkipReasonCount> skipped{};
    std::uint64_t adjudicated = 0;    // accepted games whose Termination is an adjudication
    std::uint64_t time_forfeits = 0;  // games skipped as lost on time
    // Comments of read moves whose first token is a number without a decimal point (exact
    // mode: no eval), such as OpenBench's malformed "12/17 41 40000".
    std::uint64_t scoreless_comments = 0;
    // Human games left out (scoreWDLstat --human): by games::HumanSkipReason.
    std::array<std::uint64_t, games::kHumanSkipReasonCount> human_skipped{};

    void add(const GameTally& other);
    // A game its tags reject, by the reason; a loss on time is also counted as such.
    void count_rejection(const games::GameTags& tags, games::GameSkipReason reason);
};

// The reasons games were skipped for, with their counts, those that occurred: a human scan's
// (games::HumanSkipReason) first, in the order the rules ask them, then the scanner's.
std::vector<std::pair<std::string, std::uint64_t>> skip_reasons(const GameTally& tally);

// Counts the (result, move, material, eval) keys of the accepted games of PGN text, replayed
// by games::GameReplay. A game's keys are committed only when the whole game was read without
// error, so a corrupt record adds nothing. Throws wdl::Error when the scan cannot go on (a FEN
// missing from --fixFENsource).
class GameCounter {
  public:
    GameCounter(const CountingRules& rules, counts::PositionCounts& counts);
    GameCounter(const GameCounter&) = delete;
    GameCounter& operator=(const GameCounter&) = delete;

    // Where the text read next lies (for the groups of its games): file and offset of a chunk.
    // Starts the chunk's lists of problems afresh.
    void begin_chunk(std::size_t file_index, std::uint64_t offset);
    // Counts the games of `text`, a chunk's whole games.
    void read(std::string_view text);

    // Positions of another source (training data) counted by a game's rules: a unit of them
    // (a binpack block, a .plain game, a bullet line) stands for a game, committed at its end
    // or dropped whole, and in one group; `offset` is its byte in the text of begin_chunk (from
    // the chunk's offset there).
    void begin_unit(std::uint64_t offset);
    // `eval` is displayed centipawns from the mover's view, within +-games::kMaxScore, or
    // +-games::kMateScore.
    void count_position(const chess::Board& board, counts::Outcome mover_outcome, int eval);
    // Adds the unit's positions so far, which count whatever follows (a unit checked first):
    // its keys are not held to its end.
    void count_unit_so_far();
    void end_unit();
    void drop_unit() { game_keys_.clear(); }

    const GameTally& tally() const { return tally_; }
    // Games of the chunk dropped because their record is broken.
    const games::ProblemList& problems() const { return replay_.problems(); }

  private:
    friend class games::GameReplay<GameCounter>;
    enum class Side : std::uint8_t { None, White, Black, Both };

    // The replay's hooks.
    void begin_game(std::size_t offset);
    games::TagVerdict accept(const games::GameTags& tags);
    // Inlined into the replay: the hot path of a scan, once per evaluated position.
    [[gnu::always_inline]] inline void see_position(const chess::Board& board, int eval, int plies,
                                                    games::EvalComment);
    void see_comment_without_eval(std::string_view comment);
    void skip_game(games::GameSkipReason reason);
    void finish_game(const chess::Board& board);
    void commit_game();

    Side counted_sides(const games::GameTags& tags) const;
    bool counts_side(chess::Color color) const;

    const CountingRules& rules_;
    counts::PositionCounts& counts_;
    games::ReplayRules replay_rules_;
    games::GameReplay<GameCounter> replay_;
    GameTally tally_;
    games::CountedKeyRules key_rules_;
    std::vector<std::uint64_t> game_keys_;

    // Where the current chunk lies, and the group of the current game (0 without groups).
    std::size_t file_index_ = 0;
    std::uint64_t chunk_offset_ = 0;
    int game_group_ = 0;
    // Per game, from its tags.
    counts::Outcome white_outcome_ = counts::Outcome::Draw;
    bool adjudicated_ = false;
    Side counted_sides_ = Side::Both;
};

}  // namespace wdl::scan

// Replayed in game_counter.cpp only, where the hooks it inlines are defined.
extern template class wdl::games::GameReplay<wdl::scan::GameCounter>;
