#include "wdl/scan/game_counter.hpp"

#include <re2/re2.h>

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
}

GameCounter::GameCounter(const CountingRules& rules, counts::PositionCounts& counts)
    : rules_(rules), counts_(counts) {
    tags_.exact_termination_letter = rules_.eval_parsing == games::EvalParsing::Legacy;
    game_keys_.reserve(512);
    for (int score = -games::kMaxScore; score <= games::kMaxScore; ++score)
        binned_scores_.push_back(counts::bin_eval(score, rules_.bin_width));
}

void GameCounter::begin_chunk(std::size_t file_index, std::uint64_t offset) {
    file_index_ = file_index;
    chunk_offset_ = offset;
    problems_.clear();
    games_before_chunk_ = tally_.games_read;
}

void GameCounter::begin_game(std::size_t offset) {
    ++tally_.games_read;
    if (rules_.grouping) {
        game_group_ = rules_.grouping->group_of(file_index_, chunk_offset_ + offset);
        counts_.grouped->begin_game(game_group_);
    }
    tags_.clear();
    counting_ = false;
    game_keys_.clear();
    ply_ = 0;
}

void GameCounter::tag(std::string_view name, std::string_view value) { tags_.read(name, value); }

void GameCounter::skip_game(games::GameSkipReason reason, std::string description) {
    counting_ = false;
    ++tally_.skipped[std::size_t(reason)];
    if (reason == games::GameSkipReason::BadTermination && tags_.time_forfeit)
        ++tally_.time_forfeits;
    if (!description.empty())
        problems_.add(tally_.games_read - 1 - games_before_chunk_, std::move(description));
}

// A game its tags reject is not read move by move.
bool GameCounter::begin_movetext() {
    if (auto reason = tags_.rejection()) {
        skip_game(*reason, *reason == games::GameSkipReason::UnsupportedVariant
                               ? "unsupported variant \"" + tags_.unsupported_variant + "\""
                               : std::string());
    } else if (!tags_.set_up(board_, rules_.fix_fen)) {
        skip_game(games::GameSkipReason::InvalidFen, "invalid FEN \"" + tags_.fen + "\"");
    } else {
        start_counting();
    }
    return counting_;
}

void GameCounter::start_counting() {
    counting_ = true;
    counted_sides_ = Side::Both;
    if (rules_.engine_filter) {
        bool named = !tags_.white.empty() && !tags_.black.empty();
        bool white = named && RE2::FullMatch(tags_.white, *rules_.engine_filter);
        bool black = named && RE2::FullMatch(tags_.black, *rules_.engine_filter);
        counted_sides_ = white && black ? Side::Both
                         : white        ? Side::White
                         : black        ? Side::Black
                                        : Side::None;
    }
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

void GameCounter::count_position(int eval) {
    if (board_.fullmove_number() > rules_.max_counted_move) return;
    if (!counts_side(board_.side_to_move())) return;
    bool is_mate = eval == games::kMateScore || eval == -games::kMateScore;
    int binned = is_mate ? eval : binned_scores_[std::size_t(eval + games::kMaxScore)];
    std::uint64_t packed =
        counts::pack_key(games::counted_key(board_, *tags_.white_outcome, binned));
    game_keys_.push_back(packed);
    if (counts_.grouped) return counts_.grouped->add_to_game(game_keys_);
    counts_.plain.prefetch(packed);  // added at the game's end, by then without a wait for memory
}

bool GameCounter::move(std::string_view san, std::string_view comment) {
    if (!counting_) return false;
    ++ply_;
    int eval = games::comment_eval_value(comment, rules_.eval_parsing);
    if (eval != games::kNoEval) {
        count_position(eval);
    } else if (!comment.empty() && rules_.eval_parsing == games::EvalParsing::Exact &&
               games::starts_with_bare_integer(comment)) {
        ++tally_.scoreless_comments;
    }
    auto move = board_.parse_san(san);
    if (!move) {
        skip_game(games::GameSkipReason::IllegalMove,
                  "cannot play move \"" + std::string(san) + "\" at ply " + std::to_string(ply_));
        return false;
    }
    board_.play(*move);
    // A lichess annotation describes the position after the move, from White's side.
    if (eval == games::kNoEval && !comment.empty()) {
        if (auto white_eval = games::lichess_eval(comment, rules_.eval_parsing))
            count_position(board_.side_to_move() == chess::Color::White ? *white_eval
                                                                        : -*white_eval);
    }
    return true;
}

void GameCounter::end_game(bool terminated) {
    if (!counting_) return;
    if (!terminated) {
        auto unterminated = games::unterminated_game(ply_);
        return skip_game(unterminated.reason, unterminated.warning);
    }
    if (counts_.grouped) {
        counts_.grouped->commit_game(game_keys_);
    } else {
        for (auto key : game_keys_) counts_.plain.add(key);
    }
    tally_.positions += game_keys_.size();
    ++tally_.games_accepted;
    if (tags_.adjudicated) ++tally_.adjudicated;
    counting_ = false;
}

}  // namespace wdl::scan
