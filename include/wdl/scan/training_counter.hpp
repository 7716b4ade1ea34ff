#pragma once

#include <cstdint>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/scan/game_counter.hpp"
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
    std::uint64_t records = 0;         // blocks, records or lines read, whole or broken
    std::uint64_t records_broken = 0;  // each with a warning (listed or counted)
    std::uint64_t units = 0;           // counted whole: blocks, games of records, lines
    std::uint64_t units_dropped = 0;   // with a broken record: none of their positions counted
    std::uint64_t positions_read = 0;  // every position decoded
    std::uint64_t positions = 0;       // counted
    std::uint64_t without_score = 0;   // of the units counted: score VALUE_NONE
    std::uint64_t beyond_move = 0;     // of the units counted: after max_counted_move

    void add(const TrainingTally& other);
};

// Counts the positions of training data with the scanner's own counter (GameCounter), a unit
// of positions standing for a game: the same keys, binning, mate rule, groups and commit. What
// is added here is the data's side: its scores turned into displayed centipawns, and the
// positions it holds without a score.
class TrainingCounter final : public training::PositionSink {
  public:
    TrainingCounter(const TrainingCountingRules& rules, counts::PositionCounts& counts);

    // The file whose chunk is read next (offsets are the file's), and what the chunk held.
    void begin_chunk(std::size_t file_index) { counter_.begin_chunk(file_index, 0); }
    void add_reading(const training::ChunkReading& reading);

    void begin_unit(std::uint64_t offset) override;
    void see(const training::TrainingPosition& position) override;
    void count_so_far() override { counter_.count_unit_so_far(); }
    void end_unit() override;
    void drop_unit() override;

    TrainingTally tally() const;

  private:
    // The score as the engine displays it, clamped as the scanner clamps a game's eval.
    int displayed_eval(int score, const chess::Board& board) const;

    const TrainingCountingRules& rules_;
    CountingRules counting_rules_;
    GameCounter counter_;
    TrainingTally tally_;  // what the counter's tally does not hold
    // Of the current unit, added when it is counted.
    std::uint64_t unit_without_score_ = 0, unit_beyond_move_ = 0;
};

}  // namespace wdl::scan
