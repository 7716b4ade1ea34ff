#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/counts/cell_runs.hpp"
#include "wdl/counts/count_map.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/game_replay.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/scan/game_counter.hpp"

namespace wdl::scan {

// Counts the positions of human games (scoreWDLstat --human) into HumanKeys: the scanner's
// position key (games::CountedKeyRules) with the side to move's rating, its opponent's and the
// speed class, packed with the game's group (counts::pack_human_cell). A game without any
// "[%eval" in its text is passed over unread, as most of a lichess dump is; the others are
// replayed by games::GameReplay, left out by their tags (games::HumanSkipReason, then the
// scanner's rules: a result, no time forfeit or abandoned game) or counted whole.
class HumanCounter {
  public:
    // `rules.engine_filter` and `rules.fix_fen` do not apply to human games (null).
    HumanCounter(const CountingRules& rules, counts::CountMap& counts);
    HumanCounter(const HumanCounter&) = delete;
    HumanCounter& operator=(const HumanCounter&) = delete;

    // Counts the games of a chunk, and reports how many it held and which were broken.
    games::ChunkReport read_chunk(const games::TextChunk& chunk);

    const GameTally& tally() const { return tally_; }

    // Bounds the map: after a game that takes it past `cell_budget` cells, it is written out
    // as a run and emptied (counts::CellRuns::spill).
    void spill_beyond(std::size_t cell_budget, counts::CellRuns& runs) {
        cell_budget_ = cell_budget;
        runs_ = &runs;
    }

  private:
    friend class games::GameReplay<HumanCounter>;

    // Replays one game's text (read as games: a damaged one may read as two) that lies at
    // `offset` of the file's text, its games and problems added to the chunk's report.
    void replay(std::string_view text, std::uint64_t offset, games::ChunkReport& report);

    // The replay's hooks.
    void begin_game(std::size_t offset);
    games::TagVerdict accept(const games::GameTags& tags);
    [[gnu::always_inline]] inline void see_position(const chess::Board& board, int eval, int plies,
                                                    games::EvalComment);
    void skip_game(games::GameSkipReason reason);
    void finish_game(const chess::Board& board);

    const CountingRules& rules_;
    counts::CountMap& counts_;
    std::size_t cell_budget_ = 0;
    counts::CellRuns* runs_ = nullptr;  // none: unbounded
    games::ReplayRules replay_rules_;
    games::GameReplay<HumanCounter> replay_;
    GameTally tally_;
    games::CountedKeyRules key_rules_;
    std::vector<std::uint64_t> game_keys_;

    std::size_t file_index_ = 0;
    std::uint64_t text_offset_ = 0;  // of the replayed text in the file's text
    // Per game, from its tags: the group, the result for White, the binned ratings (White's,
    // Black's) and the speed class.
    int game_group_ = 0;
    counts::Outcome white_outcome_ = counts::Outcome::Draw;
    std::array<int, 2> ratings_{};
    counts::SpeedClass speed_ = counts::SpeedClass::Rapid;
};

}  // namespace wdl::scan

// Replayed in human_counter.cpp only, where the hooks it inlines are defined.
extern template class wdl::games::GameReplay<wdl::scan::HumanCounter>;
