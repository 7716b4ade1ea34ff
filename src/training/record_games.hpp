#pragma once

#include <cstdint>
#include <string>

#include "wdl/training/training_data.hpp"

// Private to the training module: formats of one position a record (.plain, .bin) whose games
// are told by their records alone.
namespace wdl::training {

// Groups records into games as they come: a record that continues the previous one (the next
// ply, the other side's result) belongs to its game, which the sink gets as one unit. A broken
// record breaks its game, as a broken move does in PGN: its earlier records go with it.
class RecordGames {
  public:
    RecordGames(PositionSink& sink, ChunkReading& reading) : sink_(sink), reading_(reading) {}

    // A record whose position is on the board, at byte `offset` of its file.
    void add(std::uint64_t offset, const TrainingPosition& position) {
        bool continues = records_in_game_ > 0 && position.ply == previous_ply_ + 1 &&
                         position.result == -previous_result_;
        if (!continues) {
            finish();
            sink_.begin_unit(offset);
        }
        ++reading_.records;
        ++records_in_game_;
        sink_.see(position);
        previous_ply_ = position.ply;
        previous_result_ = position.result;
    }

    // A broken record at byte `offset`: one problem, and its game dropped.
    void drop(std::uint64_t offset, const std::string& why) {
        std::string dropped = records_in_game_ == 0 ? ""
                              : records_in_game_ == 1
                                  ? " (and the record of its game before it)"
                                  : " (and the " + std::to_string(records_in_game_) +
                                        " records of its game before it)";
        reading_.problems.add(reading_.records++,
                              "at byte " + std::to_string(offset) + ", " + why + dropped);
        if (records_in_game_ > 0) sink_.drop_unit();
        records_in_game_ = 0;
    }

    // Ends the game being read (at the end of the text).
    void finish() {
        if (records_in_game_ > 0) sink_.end_unit();
        records_in_game_ = 0;
    }

  private:
    PositionSink& sink_;
    ChunkReading& reading_;
    std::uint64_t records_in_game_ = 0;
    int previous_ply_ = 0, previous_result_ = 0;
};

}  // namespace wdl::training
