#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/counts/count_map.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/engine_pairing.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/fix_fen.hpp"
#include "wdl/games/game_replay.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/markov/eval_classes.hpp"
#include "wdl/util/enum_names.hpp"

namespace re2 {
class RE2;
}

// Reading games into what the chains are made of (docs/markov.md): per pairing of two engines,
// the class transitions and eval drops of each engine's moves, and each game's opening and
// result. Read on several threads through games::read_in_chunks; nothing depends on which thread
// read what.
namespace wdl::markov {

// The two engines of a pairing and their roles, as games::white_is_new gives them.
using games::kBase;
using games::kNew;
using games::kRoleNames;
using games::Role;

// How a move of player P moves the chain.
enum class TransitionMode {
    Own,       // from P's eval before the move to the opponent's next eval, turned to P's view
    Opponent,  // from the opponent's previous eval to its next one, both turned to P's view
};
inline constexpr std::array<util::EnumName<TransitionMode>, 2> kTransitionModeNames = {{
    {TransitionMode::Own, "own"},
    {TransitionMode::Opponent, "opponent"},
}};

// The conformance counters of the moves made from one class: drop = own eval - the opponent's
// next eval (in P's view), centipawns.
struct DropTally {
    std::uint64_t moves = 0;
    std::uint64_t at_most_0 = 0, at_most_10 = 0, at_most_30 = 0;
    std::int64_t positive_sum = 0;  // sum of max(drop, 0)

    void add(int drop);
    void merge(const DropTally& other);
};

// The moves of one engine with one colour in one fold.
struct MoveTally {
    std::vector<std::uint64_t> transitions;  // from * classes + to
    std::vector<DropTally> drops;            // by the class of the own eval

    explicit MoveTally(int classes = 0);
    void merge(const MoveTally& other);
};

// One game as far as results go: its opening and the score of the pairing's New engine.
struct GameRecord {
    std::uint64_t opening = 0;  // hash of the start FEN and the book moves
    bool new_white = false;
    std::uint8_t new_score_halves = 0;  // 0 loss, 1 draw, 2 win
};

inline constexpr int kFolds = 2;

// Everything read about the games of one pairing.
struct PairingTally {
    std::string test;                  // the fishtest test id; empty without metadata
    std::array<std::string, 2> names;  // by Role
    // [role][colour (0 White, 1 Black)][fold]
    std::array<std::array<std::array<MoveTally, kFolds>, 2>, 2> moves;
    std::array<std::vector<std::uint64_t>, kFolds> start_classes;  // White's view
    std::vector<GameRecord> games;           // every game with a result, as the test's score counts
    std::uint64_t games_outside_chains = 0;  // of those: not read into the chains

    explicit PairingTally(int classes = 0);
    void merge(PairingTally&& other);
};

// The fold of an opening: both colours of an opening land in the same one.
int fold_of(std::uint64_t opening);

struct CollectorSettings {
    const ClassScheme* classes = nullptr;
    TransitionMode mode = TransitionMode::Own;
    games::EvalParsing eval_parsing = games::EvalParsing::Exact;
    const re2::RE2* engine_filter = nullptr;  // keep games where a player's name matches
    const games::FixFenTable* fix_fen = nullptr;
    int bin_width = 5;           // of the positions counted for a model fit
    int max_counted_move = 200;  // as the scanner
};

// The games read, merged over threads.
struct CollectedGames {
    std::map<std::string, PairingTally> pairings;  // by pairing key
    std::uint64_t games_read = 0, games_accepted = 0;
    std::map<std::string, std::uint64_t> skipped;  // by reason
    std::uint64_t games_without_transitions = 0;   // accepted, but no evaluated move pair
    // The scanner's (result, move, material, eval) keys of the games, per fold, for model fits.
    std::array<counts::CountMap, kFolds> positions;

    void merge(CollectedGames&& other);
};

// Collects the games of the files it is told about, replayed by games::GameReplay.
class ChainCollector {
  public:
    ChainCollector(const CollectorSettings& settings,
                   const std::vector<games::PairedGameFile>& files);
    ChainCollector(const ChainCollector&) = delete;
    ChainCollector& operator=(const ChainCollector&) = delete;

    // The next games are a chunk of this file (an index into the files given): starts the
    // chunk's list of problems afresh.
    void begin_chunk(std::size_t file_index);
    // Collects the games of `text`, a chunk's whole games.
    void read(std::string_view text);

    CollectedGames& collected() { return collected_; }
    // Games of the chunk dropped because their record is broken.
    const games::ProblemList& problems() const { return replay_.problems(); }

  private:
    friend class games::GameReplay<ChainCollector>;

    // The replay's hooks.
    void begin_game(std::size_t offset);
    games::TagVerdict accept(const games::GameTags& tags);
    void start_game(const chess::Board& board);
    void see_move(const chess::Board& board, const games::ReplayedMove& move);
    void see_position(const chess::Board& board, int eval, int plies, games::EvalComment);
    void skip_game(games::GameSkipReason reason);
    void finish_game(const chess::Board& board);

    // Counts the game as skipped for `reason`, its result still in its pairing's score.
    games::TagVerdict reject(const std::string& reason, std::string warning = {});
    bool assign_pairing(const games::GameTags& tags);
    void record_result(bool in_chains);
    void commit_game();

    const CollectorSettings& settings_;
    const std::vector<games::PairedGameFile>& files_;
    games::ReplayRules replay_rules_;
    games::GameReplay<ChainCollector> replay_;
    games::CountedKeyRules key_rules_;
    std::size_t file_ = 0;
    CollectedGames collected_;

    // Per game.
    bool scored_ = false;  // the game's result is still to be added to its pairing's score
    bool in_book_ = true;
    counts::Outcome white_outcome_ = counts::Outcome::Draw;
    chess::Color first_mover_ = chess::Color::White;
    std::uint64_t opening_ = 0;
    std::array<int, 2> role_of_colour_{};  // Role by colour
    PairingTally* pairing_ = nullptr;
    std::string pairing_key_;
    std::vector<int> evals_;  // per position before ply k, mover's view; kNoEval if none
    std::vector<std::uint64_t> game_keys_;
};

// Reads the files on `threads` threads (one collector each) and merges what they collected.
struct Collection {
    CollectedGames games;
    games::ReadSummary files;
};
Collection collect_games(const std::vector<games::PairedGameFile>& files,
                         const CollectorSettings& settings, int threads,
                         const games::ReadSettings& reading = {},
                         games::ReadProgress* progress = nullptr);

}  // namespace wdl::markov
