#include "wdl/scan/human_counter.hpp"

#include <algorithm>
#include <cstring>

#include "wdl/pgn/reader.hpp"

namespace wdl::scan {
namespace {

constexpr std::string_view kEvalMark = "[%eval";

// Where the next "[%eval" lies at or after `from`, or text.size(). Found by its 'v', which
// memchr finds at the speed of memory: eval-less games have a "[%clk" in every comment, and
// their only 'v' is in the Event tag (memmem, which tries every '[', took twice the time).
std::size_t next_eval_mark(std::string_view text, std::size_t from) {
    constexpr std::size_t kBefore = 3;  // "[%e" before the 'v'
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    for (const char* p = begin + std::min(from + kBefore, text.size()); p < end; ++p) {
        p = static_cast<const char*>(std::memchr(p, 'v', std::size_t(end - p)));
        if (!p) break;
        const std::size_t at = std::size_t(p - begin) - kBefore;
        if (text.compare(at, kEvalMark.size(), kEvalMark) == 0) return at;
    }
    return text.size();
}

bool is_blank(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
    });
}

}  // namespace

HumanCounter::HumanCounter(const CountingRules& rules, counts::CountMap& counts)
    : rules_(rules),
      counts_(counts),
      replay_rules_{rules.eval_parsing, nullptr, false},
      replay_(replay_rules_, *this),
      key_rules_(rules.max_counted_move, rules.bin_width) {
    game_keys_.reserve(512);
}

games::ChunkReport HumanCounter::read_chunk(const games::TextChunk& chunk) {
    file_index_ = chunk.file_index;
    games::ChunkReport report;
    const std::string_view text = chunk.text;
    std::size_t eval_mark = next_eval_mark(text, 0);
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = pgn::find_next_game_start(text, start + 1);
        if (end == std::string_view::npos) end = text.size();
        if (eval_mark < start) eval_mark = next_eval_mark(text, start);
        const std::string_view game = text.substr(start, end - start);
        if (eval_mark < end) {
            replay(game, chunk.offset + start, report);
        } else if (!is_blank(game)) {
            ++report.games;
            ++tally_.games_read;
            ++tally_.human_skipped[std::size_t(games::HumanSkipReason::NoEval)];
        }
        start = end;
    }
    return report;
}

void HumanCounter::replay(std::string_view text, std::uint64_t offset, games::ChunkReport& report) {
    text_offset_ = offset;
    replay_.begin_chunk();
    pgn::read_games(text, replay_);
    report.problems.add_all(replay_.problems(), report.games);
    report.games += replay_.games();
}

void HumanCounter::begin_game(std::size_t offset) {
    ++tally_.games_read;
    game_group_ =
        rules_.grouping ? rules_.grouping->group_of(file_index_, text_offset_ + offset) : 0;
    game_keys_.clear();
    if (runs_ && counts_.distinct_keys() > cell_budget_) runs_->spill(counts_);
}

games::TagVerdict HumanCounter::accept(const games::GameTags& tags) {
    if (auto reason = tags.human_rejection()) {
        ++tally_.human_skipped[std::size_t(*reason)];
        return {false, {}};
    }
    if (auto reason = tags.rejection()) {
        tally_.count_rejection(tags, *reason);
        return {false, games::rejection_warning(tags, *reason)};
    }
    white_outcome_ = *tags.white_outcome;
    ratings_ = {counts::bin_rating(*tags.white_elo), counts::bin_rating(*tags.black_elo)};
    speed_ = *counts::speed_class_of_time_control(tags.time_control);
    return {};
}

inline void HumanCounter::see_position(const chess::Board& board, int eval, int,
                                       games::EvalComment) {
    auto packed = key_rules_.key_of(board, white_outcome_, eval);
    if (!packed) return;
    const bool white = board.side_to_move() == chess::Color::White;
    const counts::HumanKey key{counts::unpack_key(*packed), ratings_[white ? 0 : 1],
                               ratings_[white ? 1 : 0], speed_};
    // Always true of a replayed position: the check keeps a surprise from corrupting a key.
    if (!counts::human_packable(key, game_group_)) return;
    game_keys_.push_back(counts::pack_human_cell(key, game_group_));
    counts_.prefetch(game_keys_.back());
}

void HumanCounter::skip_game(games::GameSkipReason reason) {
    ++tally_.skipped[std::size_t(reason)];
}

void HumanCounter::finish_game(const chess::Board&) {
    for (auto key : game_keys_) counts_.add(key);
    tally_.positions += game_keys_.size();
    ++tally_.games_accepted;
    game_keys_.clear();
    if (runs_ && counts_.distinct_keys() > cell_budget_) runs_->spill(counts_);
}

}  // namespace wdl::scan

template class wdl::games::GameReplay<wdl::scan::HumanCounter>;
