#include "wdl/scan/training_counter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace wdl::scan {

void TrainingTally::add(const TrainingTally& other) {
    records += other.records;
    records_broken += other.records_broken;
    units += other.units;
    units_dropped += other.units_dropped;
    positions_read += other.positions_read;
    positions += other.positions;
    without_score += other.without_score;
    beyond_move += other.beyond_move;
}

namespace {

CountingRules counting_rules(const TrainingCountingRules& rules) {
    CountingRules counting;
    counting.bin_width = rules.bin_width;
    counting.max_counted_move = rules.max_counted_move;
    counting.grouping = rules.grouping;
    return counting;
}

}  // namespace

TrainingCounter::TrainingCounter(const TrainingCountingRules& rules, counts::PositionCounts& counts)
    : rules_(rules), counting_rules_(counting_rules(rules)), counter_(counting_rules_, counts) {}

void TrainingCounter::add_reading(const training::ChunkReading& reading) {
    tally_.records += reading.records;
    tally_.records_broken += reading.problems.listed().size() + reading.problems.unlisted();
}

void TrainingCounter::begin_unit(std::uint64_t offset) {
    counter_.begin_unit(offset);
    unit_without_score_ = unit_beyond_move_ = 0;
}

int TrainingCounter::displayed_eval(int score, const chess::Board& board) const {
    if (std::abs(score) >= training::kMateThreshold)
        return score > 0 ? games::kMateScore : -games::kMateScore;
    double scale = rules_.normalization
                       ? rules_.normalization->pawn_scale(board.fullmove_number(), board.material())
                       : 100.0;
    double cp = std::round(100.0 * score / scale);
    return int(std::clamp(cp, -double(games::kMaxScore), double(games::kMaxScore)));
}

void TrainingCounter::see(const training::TrainingPosition& position) {
    ++tally_.positions_read;
    if (position.score == training::kNoScore) {
        ++unit_without_score_;
        return;
    }
    if (position.board.fullmove_number() > rules_.max_counted_move) ++unit_beyond_move_;
    auto outcome = position.result > 0   ? counts::Outcome::Win
                   : position.result < 0 ? counts::Outcome::Loss
                                         : counts::Outcome::Draw;
    counter_.count_position(position.board, outcome,
                            displayed_eval(position.score, position.board));
}

void TrainingCounter::end_unit() {
    counter_.end_unit();
    tally_.without_score += unit_without_score_;
    tally_.beyond_move += unit_beyond_move_;
}

void TrainingCounter::drop_unit() {
    counter_.drop_unit();
    ++tally_.units_dropped;
}

TrainingTally TrainingCounter::tally() const {
    TrainingTally tally = tally_;
    tally.units = counter_.tally().games_accepted;
    tally.positions = counter_.tally().positions;
    return tally;
}

}  // namespace wdl::scan
