#pragma once

#include <cstdint>
#include <string_view>

#include "wdl/training/training_data.hpp"

// Stockfish's .plain training data: records of lines "fen F", "move M", "score S", "ply P",
// "result R" (the mover's view: 1, 0, -1), ended by a line "e".
namespace wdl::training {

// Reads the records of `text` (whole records), which starts at byte `offset` of its file. A
// record without a valid FEN, score, ply or result is skipped with one problem; records that
// continue each other (the next ply, the other side's result) form one unit.
ChunkReading read_plain(std::string_view text, std::uint64_t offset, PositionSink& sink);

// The layout: cut after a record's "e" line.
const games::RecordLayout& plain_layout();

}  // namespace wdl::training
