#pragma once

#include <array>
#include <cstdint>

#include "wdl/tablebase/material.hpp"
#include "wdl/tablebase/position.hpp"

namespace wdl::tablebase {

// Maps the positions of one material (canonical orientation) to dense indices, one index
// space per side to move. Symmetry: without pawns the white king is brought into the
// a1-d1-d4 triangle by the board's 8 symmetries, with pawns onto files a-d by the left-right
// mirror. The remaining men take 64 squares each. A position has exactly one index (ties of
// symmetric positions and identical men are broken towards the smallest index); indices that
// are no position's are marked code::none in tables.
class TableIndex {
  public:
    explicit TableIndex(const Material& material);

    const Material& material() const { return material_; }
    std::uint64_t size() const { return size_; }

    // The position in the table's frame: colours exchanged (and the board turned) if its
    // material is the flipped one, men in table order (white king, black king, White's other
    // men, Black's, each as Q R B N P). The position must be of this material.
    Position oriented(const Position& position) const;
    // The index of a position already in the table's frame (see oriented).
    std::uint64_t index_of(const Position& oriented_position) const;
    // The men that index stands for, untransformed, with the side to move given; the caller
    // checks legality and whether index_of gives the index back.
    Position position_at(std::uint64_t index, chess::Color side_to_move) const;

  private:
    Material material_;
    bool pawns_;
    int men_;
    std::uint64_t size_;
    std::array<Man, kMaxMen> template_{};     // colour and type of each man in table order
    std::array<int, kMaxMen> group_start_{};  // first man of the run of identical men
    std::array<int, 64> king_slot_{};         // slot of a white king square, -1 outside
    std::array<chess::Square, 32> slot_square_{};
};

}  // namespace wdl::tablebase
