#include "wdl/scan/training_counter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "wdl/games/game_rules.hpp"

namespace wdl::scan {

void TrainingTally::add(const TrainingTally& other) {
    records += other.records;
    records_dropped += other.records_dropped;
    units += other.units;
    positions_read += other.positions_read;
    positions += other.positions;
    without_score += other.without_score;
    beyond_move += other.beyond_move;
}

TrainingCounter::TrainingCounter(const TrainingCountingRules& rules, counts::PositionCounts& counts)
    : rules_(rules), counts_(counts) {}

void TrainingCounter::begin_unit(std::uint64_t offset) {
    ++record_tally_.units;
    if (rules_.grouping) unit_group_ = rules_.grouping->group_of(file_index_, offset);
}

int TrainingCounter::displayed_eval(int score, int move, int material) const {
    if (std::abs(score) >= training::kMateThreshold)
        return score > 0 ? counts::kMateEval : -counts::kMateEval;
    double scale = rules_.normalization ? rules_.normalization->pawn_scale(move, material) : 100.0;
    double cp = std::round(100.0 * score / scale);
    return counts::bin_eval(
        int(std::clamp(cp, -double(counts::kMaxEval), double(counts::kMaxEval))), rules_.bin_width);
}

void TrainingCounter::see(const training::TrainingPosition& position) {
    ++record_tally_.positions_read;
    if (position.score == training::kNoScore) {
        ++record_tally_.without_score;
        return;
    }
    int move = position.ply / 2 + 1;
    if (move > rules_.max_counted_move) {
        ++record_tally_.beyond_move;
        return;
    }
    int material = position.board.material();
    auto outcome = position.result > 0   ? counts::Outcome::Win
                   : position.result < 0 ? counts::Outcome::Loss
                                         : counts::Outcome::Draw;
    record_keys_.push_back(counts::pack_key(games::counted_key_at_ply(
        position.ply, material, outcome, displayed_eval(position.score, move, material))));
    record_groups_.push_back(unit_group_);
}

void TrainingCounter::end_record() {
    for (std::size_t i = 0; i < record_keys_.size(); ++i)
        counts_.add(record_keys_[i], record_groups_[i]);
    record_tally_.positions = record_keys_.size();
    record_tally_.records = 1;
    tally_.add(record_tally_);
    clear_record();
}

void TrainingCounter::drop_record() {
    ++tally_.records_dropped;
    clear_record();
}

void TrainingCounter::clear_record() {
    record_keys_.clear();
    record_groups_.clear();
    record_tally_ = {};
}

}  // namespace wdl::scan
