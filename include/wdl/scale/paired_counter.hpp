#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/counts/grouped_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/engine_pairing.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/fix_fen.hpp"
#include "wdl/games/game_replay.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/scan/game_grouping.hpp"

namespace re2 {
class RE2;
}

// Games read into the counts of each engine of a pairing on its own moves (scaleWDL,
// docs/comparison.md): the scanner's (result, move, material, eval) keys, kept apart by the
// engine whose eval each position carries and grouped by game alike for both engines, so that a
// resampling can leave the same games out of both engines' fits.
namespace wdl::scale {

struct PairedCountingRules {
    games::EvalParsing eval_parsing = games::EvalParsing::Exact;
    int bin_width = 5;
    const re2::RE2* engine_filter = nullptr;       // keep games where a player's name matches
    const games::FixFenTable* fix_fen = nullptr;   // --fixFENsource
    int max_counted_move = 200;                    // as the scanner
    const scan::GameGrouping* grouping = nullptr;  // by game; required
};

// The counts of one pairing: engine `role`'s positions of the games of game group g are in
// group role * game_groups + g of `counts`.
struct PairingCounts {
    std::string test;                  // the fishtest test id; empty without metadata
    std::array<std::string, 2> names;  // by games::Role
    int game_groups = 0;
    counts::GroupedCounts counts;
    std::uint64_t games = 0;                   // accepted games
    std::array<std::uint64_t, 2> positions{};  // counted, by role

    explicit PairingCounts(int groups_per_role);
    int group_of(games::Role role, int game_group) const {
        return int(role) * game_groups + game_group;
    }
    void merge(PairingCounts&& other);
};

struct PairedTally {
    std::uint64_t games_read = 0, games_accepted = 0;
    std::map<std::string, std::uint64_t> skipped;  // by reason
    // Evals not written by a player (lichess [%eval] annotations): not counted.
    std::uint64_t annotator_evals = 0;

    void add(const PairedTally& other);
};

// Counts the games of the files it is told about, replayed by games::GameReplay. A game's keys
// are committed only when the whole game was read without error.
class PairedCounter {
  public:
    PairedCounter(const PairedCountingRules& rules,
                  const std::vector<games::PairedGameFile>& files);
    PairedCounter(const PairedCounter&) = delete;
    PairedCounter& operator=(const PairedCounter&) = delete;

    // The next games are a chunk of this file (an index into the files) starting at `offset`
    // of its text.
    void begin_chunk(std::size_t file_index, std::uint64_t offset);
    void read(std::string_view text);

    std::map<std::string, PairingCounts>& pairings() { return pairings_; }
    PairedTally& tally() { return tally_; }
    const games::ProblemList& problems() const { return replay_.problems(); }

  private:
    friend class games::GameReplay<PairedCounter>;

    // The replay's hooks.
    void begin_game(std::size_t offset);
    games::TagVerdict accept(const games::GameTags& tags);
    void see_position(const chess::Board& board, int eval, int plies, games::EvalComment comment);
    void skip_game(games::GameSkipReason reason);
    void finish_game(const chess::Board& board);

    games::TagVerdict reject(const std::string& reason, std::string warning = {});
    PairingCounts& pairing_of(const games::GameTags& tags);

    const PairedCountingRules& rules_;
    const std::vector<games::PairedGameFile>& files_;
    games::ReplayRules replay_rules_;
    games::GameReplay<PairedCounter> replay_;
    games::CountedKeyRules key_rules_;
    std::map<std::string, PairingCounts> pairings_;
    PairedTally tally_;

    std::size_t file_index_ = 0;
    std::uint64_t chunk_offset_ = 0;
    // Per game.
    int game_group_ = 0;
    counts::Outcome white_outcome_ = counts::Outcome::Draw;
    PairingCounts* pairing_ = nullptr;
    std::array<games::Role, 2> role_of_colour_{};          // by colour: 0 White, 1 Black
    std::array<std::vector<std::uint64_t>, 2> game_keys_;  // by role
};

struct PairedCollection {
    std::map<std::string, PairingCounts> pairings;  // by games::pairing_key
    PairedTally tally;
    games::ReadSummary files;
};

// Reads the files on `threads` threads (one counter each) and merges what they counted; nothing
// depends on which thread read what.
PairedCollection count_pairings(const std::vector<games::PairedGameFile>& files,
                                const PairedCountingRules& rules, int threads,
                                games::ReadProgress* progress = nullptr);

}  // namespace wdl::scale
