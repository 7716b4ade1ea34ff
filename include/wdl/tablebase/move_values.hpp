#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/tablebase/table.hpp"

namespace wdl::tablebase {

class GaviotaTables;
class TableSet;

// One legal move and the table value of the position it leads to, for the opponent (who is
// to move there). Under DTC a move that converts has depth 0 after it.
struct MoveValue {
    chess::Move move;
    Value after;
    bool zeroing = false;  // a capture or a pawn move: resets the 50-move counter

    // The value of the move for the side that plays it.
    Value for_mover() const { return after.before_move(); }
};

// The outcome of asking a source for the values of a position's moves.
struct MoveValuesResult {
    // Set when every legal move's successor is covered (empty for mate or stalemate).
    std::optional<std::vector<MoveValue>> moves;
    // Why not, when not: "more than 4 men", "castling rights", or a missing table's name.
    std::string uncovered;
};

// Where table values come from: the project's own tables, Gaviota or Syzygy.
class TableSource {
  public:
    virtual ~TableSource() = default;
    virtual Metric metric() const = 0;
    virtual std::string description() const = 0;
    virtual int max_men() const = 0;
    // Thread-safe.
    virtual MoveValuesResult move_values(const chess::Board& board) = 0;
    // The greatest depth (winner's moves) of the endgame and of those it converts into; -1 if
    // a table is missing. Thread-safe.
    virtual int max_depth(const Material& material) = 0;
};

// The best value for the side to move among its moves.
Value best_value(const std::vector<MoveValue>& moves);

std::unique_ptr<TableSource> make_own_source(TableSet& tables);
std::unique_ptr<TableSource> make_gaviota_source(GaviotaTables& tables);

}  // namespace wdl::tablebase
