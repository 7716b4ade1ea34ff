#pragma once

#include <cstdint>
#include <string_view>

#include "wdl/training/training_data.hpp"

// Stockfish's .binpack training data (its `tools` branch, docs/binpack.md there): blocks
// "BINP" + size + chains; a chain is a stem (a position packed in 24 bytes, its move, score,
// ply and result) followed by the game's next moves, each numbered among the moving piece's
// destinations, with the change of score in a variable-length code.
namespace wdl::training {

// Stockfish's reader refuses blocks larger than this (a malformed size).
inline constexpr std::uint32_t kLargestBinpackBlock = 100u << 20;

// Reads the binpack blocks of `bytes` (whole blocks as the binpack layout cuts them; the last
// chunk of a file may end in a truncated block), which start at byte `offset` of their file.
// A block found damaged (a position that is not one, a move number beyond the piece's
// destinations, a chain running past its block, bytes without a block header) is dropped whole
// with one problem naming its byte, and reading goes on at the next block header after its own
// (its size damaged too, perhaps); every other block is read. A block beyond Stockfish's size
// (2 MiB) is checked whole, then handed to the sink chain by chain (count_so_far).
ChunkReading read_binpack(std::string_view bytes, std::uint64_t offset, PositionSink& sink);

// The layout: cut after the last whole block; garbage is cut at the next block header.
const games::RecordLayout& binpack_layout();

}  // namespace wdl::training
