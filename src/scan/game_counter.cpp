#include "wdl/scan/game_counter.hpp"

#include <re2/re2.h>

#include "wdl/util/error.hpp"

namespace wdl::scan {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

bool is_bad_termination(std::string_view termination) {
    return termination == "time forfeit" || termination == "abandoned" ||
           termination == "stalled connection" || termination == "illegal move" ||
           termination == "unterminated";
}

counts::Outcome opposite(counts::Outcome outcome) {
    if (outcome == counts::Outcome::Win) return counts::Outcome::Loss;
    if (outcome == counts::Outcome::Loss) return counts::Outcome::Win;
    return counts::Outcome::Draw;
}

}  // namespace

std::string engine_filter_pattern(const std::optional<std::string>& match_engine,
                                  const std::string& match_rev) {
    return match_engine ? *match_engine : match_rev;
}

std::unique_ptr<re2::RE2> compile_engine_filter(const std::string& pattern) {
    if (pattern.empty()) return nullptr;
    auto filter = std::make_unique<re2::RE2>(pattern, RE2::Quiet);
    if (!filter->ok())
        throw Error("invalid regular expression for --matchEngine \"" + pattern +
                    "\": " + filter->error());
    return filter;
}

const char* describe(GameSkipReason reason) {
    switch (reason) {
        case GameSkipReason::NoResult:
            return "no decisive or drawn result";
        case GameSkipReason::BadTermination:
            return "excluded termination";
        case GameSkipReason::InvalidFen:
            return "invalid FEN";
        case GameSkipReason::IllegalMove:
            return "illegal or unreadable move";
        case GameSkipReason::Incomplete:
            return "incomplete game";
    }
    return "unknown";
}

void GameTally::add(const GameTally& other) {
    games_read += other.games_read;
    games_accepted += other.games_accepted;
    positions += other.positions;
    for (std::size_t i = 0; i < kSkipReasonCount; ++i) skipped[i] += other.skipped[i];
}

GameCounter::GameCounter(const CountingRules& rules, counts::CountMap& counts)
    : rules_(rules), counts_(counts) {
    game_keys_.reserve(512);
    for (int score = -kMaxScore; score <= kMaxScore; ++score)
        binned_scores_.push_back(bin_eval(score, rules_.bin_width));
}

void GameCounter::begin_chunk(std::size_t file_index, std::uint64_t offset) {
    file_index_ = file_index;
    chunk_offset_ = offset;
}

void GameCounter::begin_game(std::size_t offset) {
    ++tally_.games_read;
    if (rules_.grouping)
        game_group_ = rules_.grouping->group_of(file_index_, chunk_offset_ + offset);
    fen_.clear();
    white_.clear();
    black_.clear();
    chess960_ = false;
    has_good_result_ = false;
    has_bad_termination_ = false;
    counting_ = false;
    game_keys_.clear();
    ply_ = 0;
}

void GameCounter::tag(std::string_view name, std::string_view value) {
    if (name == "Result") {
        has_good_result_ = true;
        if (value == "1-0") {
            white_outcome_ = counts::Outcome::Win;
        } else if (value == "0-1") {
            white_outcome_ = counts::Outcome::Loss;
        } else if (value == "1/2-1/2") {
            white_outcome_ = counts::Outcome::Draw;
        } else {
            has_good_result_ = false;
        }
    } else if (name == "Termination") {
        has_bad_termination_ = is_bad_termination(value);
    } else if (name == "FEN") {
        fen_.assign(value);
    } else if (name == "Variant") {
        chess960_ =
            equals_ignoring_case(value, "fischerandom") || equals_ignoring_case(value, "chess960");
    } else if (name == "White") {
        white_.assign(value);
    } else if (name == "Black") {
        black_.assign(value);
    }
}

void GameCounter::skip_game(GameSkipReason reason, std::string description) {
    counting_ = false;
    ++tally_.skipped[std::size_t(reason)];
    if (!description.empty()) problems_.push_back({tally_.games_read - 1, std::move(description)});
}

bool GameCounter::set_up_board() {
    if (fen_.empty()) {
        board_.set_start_position();
        return true;
    }
    if (!rules_.fix_fen) return board_.set_fen(fen_, chess960_);
    auto fixed = rules_.fix_fen->fix(fen_);
    if (!fixed)
        throw Error("Could not find FEN \"" + fen_.substr(0, fen_.size() - 4) +
                    "\" in fixFENsource.");
    return board_.set_fen(*fixed, chess960_);
}

// A game its tags reject is not read move by move.
bool GameCounter::begin_movetext() {
    if (!has_good_result_) {
        skip_game(GameSkipReason::NoResult);
    } else if (has_bad_termination_) {
        skip_game(GameSkipReason::BadTermination);
    } else if (!set_up_board()) {
        skip_game(GameSkipReason::InvalidFen, "invalid FEN \"" + fen_ + "\"");
    } else {
        start_counting();
    }
    return counting_;
}

void GameCounter::start_counting() {
    counting_ = true;
    counted_sides_ = Side::Both;
    if (rules_.engine_filter) {
        bool white =
            !white_.empty() && !black_.empty() && RE2::FullMatch(white_, *rules_.engine_filter);
        bool black =
            !white_.empty() && !black_.empty() && RE2::FullMatch(black_, *rules_.engine_filter);
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
    counts::PositionKey key;
    key.result =
        board_.side_to_move() == chess::Color::White ? white_outcome_ : opposite(white_outcome_);
    key.move = board_.fullmove_number();
    key.material = board_.material();
    bool is_mate = eval == kMateScore || eval == -kMateScore;
    key.eval = is_mate ? eval : binned_scores_[std::size_t(eval + kMaxScore)];
    std::uint64_t packed = counts::with_group(counts::pack_key(key), game_group_);
    counts_.prefetch(packed);  // added at the game's end, by then without a wait for memory
    game_keys_.push_back(packed);
}

bool GameCounter::move(std::string_view san, std::string_view comment) {
    if (!counting_) return false;
    ++ply_;
    int eval = comment_eval_value(comment, rules_.eval_parsing);
    if (eval != kNoEval) count_position(eval);
    auto move = board_.parse_san(san);
    if (!move) {
        skip_game(GameSkipReason::IllegalMove,
                  "cannot play move \"" + std::string(san) + "\" at ply " + std::to_string(ply_));
        return false;
    }
    board_.play(*move);
    // A lichess annotation describes the position after the move, from White's side.
    if (eval == kNoEval && !comment.empty()) {
        if (auto white_eval = lichess_eval(comment, rules_.eval_parsing))
            count_position(board_.side_to_move() == chess::Color::White ? *white_eval
                                                                        : -*white_eval);
    }
    return true;
}

void GameCounter::end_game(bool terminated) {
    if (!counting_) return;
    if (!terminated) {
        return skip_game(GameSkipReason::Incomplete, "game ends without a result (truncated?)");
    }
    for (auto key : game_keys_) counts_.add(key);
    tally_.positions += game_keys_.size();
    ++tally_.games_accepted;
    counting_ = false;
}

}  // namespace wdl::scan
