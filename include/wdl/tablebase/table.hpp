#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wdl/tablebase/material.hpp"
#include "wdl/tablebase/position.hpp"
#include "wdl/util/enum_names.hpp"

namespace wdl::tablebase {

// How a table measures depth: plies to mate, or plies to conversion (mate, a capture or a
// promotion; a conversion into a won subgame counts as reaching the goal).
enum class Metric : std::uint8_t { DTM, DTC };
// In the order scoreCompetence --metric lists them. Table files name the metric in lowercase
// ("KQK.dtc.wdltb"), which parse_metric accepts too.
inline constexpr std::array<util::EnumName<Metric>, 2> kMetricNames = {{
    {Metric::DTC, "DTC"},
    {Metric::DTM, "DTM"},
}};
const char* metric_name(Metric metric);
std::optional<Metric> parse_metric(std::string_view name);  // any case

enum class Outcome : std::uint8_t { Loss, Draw, Win };

// The value of a position for its side to move. plies counts half-moves to the metric's goal
// (0 for draws; 0 for a mated side; under DTC a side forced to convert into a lost subgame
// loses in 1 ply).
struct Value {
    Outcome outcome = Outcome::Draw;
    int plies = 0;

    // The depth in the winner's moves, as Haworth & Andrist count it: ceil(plies / 2) for a win,
    // floor(plies / 2) for a loss (the winner's moves still to come), 0 for a draw.
    int winner_moves() const;
    // The value for the opponent after one ply spent: a loss in n becomes a win in n + 1.
    Value before_move() const;
    friend bool operator==(const Value&, const Value&) = default;
};

// One byte per position in a table. 0 is a draw, 255 an index that is no position (illegal,
// or another index's mirror image); otherwise odd codes are wins and even codes losses.
namespace code {
inline constexpr std::uint8_t draw = 0;
inline constexpr std::uint8_t none = 255;
inline constexpr int max_plies = 125;
constexpr std::uint8_t win(int plies) { return std::uint8_t(1 + 2 * plies); }
constexpr std::uint8_t loss(int plies) { return std::uint8_t(2 + 2 * plies); }
constexpr bool is_win(std::uint8_t c) { return c != none && c % 2 == 1; }
constexpr bool is_loss(std::uint8_t c) { return c != none && c != draw && c % 2 == 0; }
constexpr int plies_of(std::uint8_t c) { return (c - 1) / 2; }
Value value_of(std::uint8_t c);
std::uint8_t of(Value value);
}  // namespace code

class TableIndex;

// An endgame table: the value of every position of one material (canonical orientation) with
// either side to move, under one metric. Positions with en-passant rights are not stored:
// probe them through MoveValues (they are valued by their moves).
class Table {
  public:
    Table(Material material, Metric metric, std::vector<std::uint8_t> white_to_move,
          std::vector<std::uint8_t> black_to_move);
    ~Table();
    Table(Table&&) noexcept;
    Table& operator=(Table&&) noexcept;

    const Material& material() const { return material_; }
    Metric metric() const { return metric_; }
    // The value of a position of this material (either colour orientation), ignoring its
    // en-passant square. std::nullopt for a position of another material.
    std::optional<Value> probe(const Position& position) const;
    // The raw codes by side to move, for files and tests.
    const std::vector<std::uint8_t>& codes(chess::Color side_to_move) const {
        return codes_[std::size_t(side_to_move)];
    }
    const TableIndex& index() const { return *index_; }

  private:
    Material material_;
    Metric metric_;
    std::unique_ptr<TableIndex> index_;
    std::array<std::vector<std::uint8_t>, 2> codes_;
};

}  // namespace wdl::tablebase
