#pragma once

#include <cstdint>
#include <vector>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/training/training_data.hpp"

namespace wdl::scan {

// What decides how the positions of training data are counted.
struct TrainingCountingRules {
    int bin_width = 5;
    int max_counted_move = 200;              // positions after this full move are not counted
    const GameGrouping* grouping = nullptr;  // --groups; null counts without groups
    // The data's scores are the engine's internal units; a count file holds displayed
    // centipawns, 100 v / a(mom) rounded, as the engine prints them (and scoreWDL turns back).
    const model::Normalization* normalization = nullptr;
};

struct TrainingTally {
    std::uint64_t records = 0;          // read whole (blocks, records, lines)
    std::uint64_t records_dropped = 0;  // found broken: none of their positions counted
    std::uint64_t units = 0;            // chains, games or lines of the records read whole
    std::uint64_t positions_read = 0;   // of the records read whole
    std::uint64_t positions = 0;        // counted
    std::uint64_t without_score = 0;    // score VALUE_NONE
    std::uint64_t beyond_move = 0;      // after max_counted_move

    void add(const TrainingTally& other);
};

// Counts the (result, move, material, eval) keys of training positions as the scanner counts
// those of games: a record's keys are committed only when the whole record was read.
class TrainingCounter final : public training::PositionSink {
  public:
    TrainingCounter(const TrainingCountingRules& rules, counts::PositionCounts& counts);

    // The file whose chunk is read next (for the groups of its units).
    void begin_chunk(std::size_t file_index) { file_index_ = file_index; }

    void begin_unit(std::uint64_t offset) override;
    void see(const training::TrainingPosition& position) override;
    void end_record() override;
    void drop_record() override;

    const TrainingTally& tally() const { return tally_; }

  private:
    int displayed_eval(int score, int move, int material) const;
    void clear_record();

    const TrainingCountingRules& rules_;
    counts::PositionCounts& counts_;
    TrainingTally tally_;
    std::size_t file_index_ = 0;
    int unit_group_ = 0;
    // The current record's keys and their groups, and what it held.
    std::vector<std::uint64_t> record_keys_;
    std::vector<int> record_groups_;
    TrainingTally record_tally_;
};

}  // namespace wdl::scan
