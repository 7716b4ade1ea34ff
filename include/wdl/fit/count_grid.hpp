#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "wdl/counts/count_file.hpp"
#include "wdl/counts/position_key.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/util/checked_sum.hpp"

// The retained counts on a dense (mom, internal eval) grid, as the original keeps them.
namespace wdl::fit {

using model::MomType;

struct GridFilter {
    int move_min = 1, move_max = 120;
    int material_min = 17, material_max = 78;
    int eval_max_cp = 400;  // applies to |internal eval| after conversion, see eval_max()
    MomType mom_type = MomType::Material;
};

struct WdlCounts {
    std::int64_t wins = 0, draws = 0, losses = 0;
    std::int64_t total() const { return util::checked_sum(util::checked_sum(wins, draws), losses); }
    void add(const WdlCounts& other) {
        wins = util::checked_sum(wins, other.wins);
        draws = util::checked_sum(draws, other.draws);
        losses = util::checked_sum(losses, other.losses);
    }
};

// A cell of the grid: the mom and internal eval of a retained key.
struct GridCell {
    int mom = 0;
    int eval = 0;
};

// A retained count of one group: its packed key (counts::pack_key), its cell (cell_index)
// and the count.
struct KeyCount {
    std::uint64_t key = 0;
    std::int64_t count = 0;
    std::uint32_t cell = 0;
};

class CountGrid : public counts::CountTarget {
  public:
    // With keep_groups, the counts of grouped input are also kept group by group
    // (group_counts), for resampling and cross-validation.
    CountGrid(const GridFilter& filter, const model::Normalization& normalization,
              bool keep_groups = false);

    // Adds the count if the key passes the move/material filters and its internal eval lies
    // within +-eval_max(); other keys are not retained.
    void add(const counts::PositionKey& key, std::int64_t count) override;
    // add(), and when groups are kept, a retained count also goes to the list of its group.
    void add_to_group(int group, const counts::PositionKey& key, std::int64_t count) override;
    void add_to_groups(const counts::PositionKey& key, std::span<const int> groups,
                       std::span<const std::int64_t> counts) override;

    // The cell of a key, none if the key is not retained.
    std::optional<GridCell> cell_of(const counts::PositionKey& key) const;
    // Cells numbered 0 .. cell_count() - 1, mom by mom, eval by eval.
    std::size_t cell_count() const { return cells_.size(); }
    std::uint32_t cell_index(const GridCell& cell) const {
        return std::uint32_t(std::size_t(cell.mom - mom_min_) * eval_span() +
                             std::size_t(cell.eval + eval_max_));
    }
    GridCell cell_at(std::uint32_t index) const {
        return {mom_min_ + int(index / eval_span()), int(index % eval_span()) - eval_max_};
    }
    // The retained counts of each group of grouped input, in the order read (group g at
    // index g; empty for plain input).
    const std::vector<std::vector<KeyCount>>& group_counts() const { return group_counts_; }

    // A grid of the same filter, normalization and grouping, without counts.
    std::unique_ptr<CountGrid> blank_grid() const;
    std::unique_ptr<counts::CountTarget> blank_copy() const override { return blank_grid(); }
    // Adds the cells of a grid made by blank_copy.
    void merge(const counts::CountTarget& part) override;

    int mom_min() const { return mom_min_; }
    int mom_max() const { return mom_min_ + mom_count_ - 1; }
    int mom_count() const { return mom_count_; }
    // round_half_even(evalMax * pawnValue / 100) in internal units (evalMax at the middle of its
    // printed range where the normalization reads a truncated display).
    int eval_max() const { return eval_max_; }
    MomType mom_type() const { return filter_.mom_type; }
    int pawn_value() const { return normalization_.pawn_value(); }

    const WdlCounts& at(int mom, int eval) const { return cells_[cell_index({mom, eval})]; }
    WdlCounts totals() const;
    WdlCounts totals_at_mom(int mom) const;

  private:
    void add_at(const GridCell& cell, counts::Outcome result, std::int64_t count);
    std::size_t eval_span() const { return std::size_t(2 * eval_max_ + 1); }

    GridFilter filter_;
    model::Normalization normalization_;
    int mom_min_ = 0, mom_count_ = 0, eval_max_ = 0;
    std::vector<WdlCounts> cells_;
    // pawn_scale per retained move (move-based normalization) or material (otherwise).
    bool scale_by_move_ = false;
    int scale_offset_ = 0;
    std::vector<double> scales_;
    bool keep_groups_ = false;
    std::vector<std::vector<KeyCount>> group_counts_;
};

}  // namespace wdl::fit
