#pragma once

#include <cstdint>
#include <string_view>

#include "wdl/training/training_data.hpp"

// bullet's text format for chess: one position per line, "<FEN> | <score> | <result>", the
// score in the engine's units and the result (1.0, 0.5, 0.0) both from White's view.
namespace wdl::training {

// Reads the lines of `text` (whole lines), which starts at byte `offset` of its file; each line
// is a unit of its own (bullet's data holds no games). A line that is not such a position is
// skipped with one problem; blank lines are ignored. The ply is taken from the FEN's move number.
ChunkReading read_bullet(std::string_view text, std::uint64_t offset, PositionSink& sink);

// The layout: cut after a line.
const games::RecordLayout& bullet_layout();

}  // namespace wdl::training
