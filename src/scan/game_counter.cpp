#include "wdl/scan/game_counter.hpp"

#include "wdl/games/engine_filter.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/util/error.hpp"

namespace wdl::scan {

void GameTally::add(const GameTally& other) {
    games_read += other.games_read;
    games_accepted += other.games_accepted;
    positions += other.positions;
    for (std::size_t i = 0; i < games::kSkipReasonCount; ++i) skipped[i] += other.skipped[i];
    adjudicated += other.adjudicated;
    time_forfeits += other.time_forfeits;
    scoreless_comments += other.scoreless_comments;
    for (std::size_t i = 0; i < games::kHumanSkipReasonCount; ++i)
        human_skipped[i] += other.human_skipped[i];
}

void GameTally::count_rejection(const games::GameTags& tags, games::GameSkipReason reason) {
    ++skipped[std::size_t(reason)];
    if (reason == games::GameSkipReason::BadTermination && tags.time_forfeit) ++time_forfeits;
}

std::vector<std::pair<std::string, std::uint64_t>> skip_reasons(const GameTally& tally) {
    std::vector<std::pair<std::string, std::uint64_t>> reasons;
    for (std::size_t i = 0; i < games::kHumanSkipReasonCount; ++i)
        if (tally.human_skipped[i] > 0)
            reasons.emplace_back(games::describe(games::HumanSkipReason(i)),
                                 tally.human_skipped[i]);
    for (std::size_t i = 0; i < games::kSkipReasonCount; ++i)
        if (tally.skipped[i] > 0)
            reasons.emplace_back(games::describe(games::GameSkipReason(i)), tally.skipped[i]);
    return reasons;
}

GameCounter::GameCounter(const CountingRules& rules, counts::PositionCounts& counts)
    : rules_(rules),
      counts_(counts),
      replay_rules_{rules.eval_parsing, rules.fix_fen, false},
      replay_(replay_rules_, *this),
      key_rules_(rules.max_counted_move, rules.bin_width) {
    game_keys_.reserve(512);
}

void GameCounter::begin_chunk(std::size_t file_index, std::uint64_t offset) {
    file_index_ = file_index;
    chunk_offset_ = offset;
    replay_.begin_chunk();
}

void GameCounter::read(std::string_view text) { pgn::read_games(text, replay_); }

void GameCounter::begin_game(std::size_t offset) {
    ++tally_.games_read;
    if (rules_.grouping) {
        game_group_ = rules_.grouping->group_of(file_index_, chunk_offset_ + offset);
        counts_.grouped->begin_game(game_group_);
    }
    game_keys_.clear();
}

// A game its tags reject is not read move by move.
games::TagVerdict GameCounter::accept(const games::GameTags& tags) {
    if (auto reason = tags.rejection()) {
        tally_.count_rejection(tags, *reason);
        return {false, games::rejection_warning(tags, *reason)};
    }
    white_outcome_ = *tags.white_outcome;
    adjudicated_ = tags.adjudicated;
    counted_sides_ = counted_sides(tags);
    return {};
}

GameCounter::Side GameCounter::counted_sides(const games::GameTags& tags) const {
    auto [white, black] = games::matched_players(rules_.engine_filter, tags.white, tags.black);
    return white && black ? Side::Both : white ? Side::White : black ? Side::Black : Side::None;
}

bool GameCounter::counts_side(chess::Color color) const {
    switch (counted_sides_) {
        case Side::Both:
            return true;
        case Side::None:
            return false;
        case Side::White:
            return color == chess::Color::White;
        case Side::Black:
            return color == chess::Color::Black;
    }
    return false;
}

inline void GameCounter::see_position(const chess::Board& board, int eval, int,
                                      games::EvalComment) {
    if (!counts_side(board.side_to_move())) return;
    auto key = key_rules_.key_of(board, white_outcome_, eval);
    if (!key) return;
    std::uint64_t packed = *key;
    game_keys_.push_back(packed);
    if (counts_.grouped) return counts_.grouped->add_to_game(game_keys_);
    counts_.plain.prefetch(packed);  // added at the game's end, by then without a wait for memory
}

// OpenBench's malformed "12/17 41 40000": a number without a decimal point has no eval in the
// exact mode, and the summary says how often that happened.
void GameCounter::see_comment_without_eval(std::string_view comment) {
    if (rules_.eval_parsing == games::EvalParsing::Exact &&
        games::starts_with_bare_integer(comment))
        ++tally_.scoreless_comments;
}

void GameCounter::skip_game(games::GameSkipReason reason) { ++tally_.skipped[std::size_t(reason)]; }

void GameCounter::finish_game(const chess::Board&) { commit_game(); }

void GameCounter::commit_game() {
    count_unit_so_far();
    ++tally_.games_accepted;
    if (adjudicated_) ++tally_.adjudicated;
}

void GameCounter::begin_unit(std::uint64_t offset) {
    begin_game(offset);
    counted_sides_ = Side::Both;
    adjudicated_ = false;
}

void GameCounter::count_position(const chess::Board& board, counts::Outcome mover_outcome,
                                 int eval) {
    white_outcome_ = board.side_to_move() == chess::Color::White ? mover_outcome
                                                                 : counts::opposite(mover_outcome);
    see_position(board, eval, 0, games::EvalComment::OfMoveFrom);
}

void GameCounter::count_unit_so_far() {
    if (counts_.grouped) {
        counts_.grouped->commit_game(game_keys_);
    } else {
        for (auto key : game_keys_) counts_.plain.add(key);
    }
    tally_.positions += game_keys_.size();
    game_keys_.clear();
}

void GameCounter::end_unit() { commit_game(); }

}  // namespace wdl::scan

template class wdl::games::GameReplay<wdl::scan::GameCounter>;
