#pragma once

#include <cstdint>
#include <string_view>

#include "wdl/training/training_data.hpp"

// Stockfish's older .bin training data (its `tools` branch, PackedSfenValue): records of 40
// bytes, a position packed in 256 bits with a Huffman code of the pieces, then the score, the
// move, the game ply and the result (the mover's view), little-endian.
namespace wdl::training {

inline constexpr std::size_t kBinRecordBytes = 40;

// Reads the records of `bytes` (whole records; the last chunk of a file may end in a part of
// one), which start at byte `offset` of their file. Records that continue each other (the next
// ply, the other side's result) form one unit, a game; a record that holds no position is
// skipped with one problem and breaks its game, whose earlier records are dropped with it.
ChunkReading read_bin(std::string_view bytes, std::uint64_t offset, PositionSink& sink);

// The layout: cut after whole records.
const games::RecordLayout& bin_layout();

}  // namespace wdl::training
