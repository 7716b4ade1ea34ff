#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/wdl_data.hpp"

// The fit's data split into the groups of a grouped count file: what resampling and
// cross-validation reweight (docs/model.md, "Uncertainty").
namespace wdl::fit {

class GroupedData {
  public:
    // The grid's data (collect_mom_data) and that of each of its groups that retained a
    // position; the grid must outlive this object.
    explicit GroupedData(const CountGrid& grid);

    const CountGrid& grid() const { return grid_; }
    const std::vector<MomData>& total() const { return total_; }
    // Groups with retained positions, numbered 0 .. group_count() - 1 in the file's order.
    std::size_t group_count() const { return groups_.size(); }
    // The group's number in the count file.
    int file_group(std::size_t group) const { return groups_[group].file_group; }
    double positions(std::size_t group) const { return groups_[group].positions; }
    // The group's retained counts by key, for scoring models on them.
    const std::vector<KeyCount>& counts(std::size_t group) const {
        return grid_.group_counts()[std::size_t(groups_[group].file_group)];
    }

    // The data with each group's counts multiplied by its weight (group_count() weights): 0
    // leaves a group out, 2 takes it twice. Cells left without positions are dropped.
    std::vector<MomData> weighted(std::span<const double> weights) const;

  private:
    // A group's counts in one cell of total_: total_[mom].cells[cell].
    struct GroupCell {
        std::uint32_t mom = 0, cell = 0;
        double wins = 0, draws = 0, losses = 0;
    };
    struct Group {
        int file_group = 0;
        double positions = 0;
        std::vector<GroupCell> cells;
    };

    // The group's counts summed per cell of total_. `sums` (one per grid cell, all zero) is
    // scratch space, left all zero.
    Group collect_group(int file_group, std::vector<std::array<double, 3>>& sums) const;

    const CountGrid& grid_;
    std::vector<MomData> total_;
    // Of each grid cell that holds data, where it is in total_: total_[mom].cells[cell].
    std::vector<std::pair<std::uint32_t, std::uint32_t>> places_;
    std::vector<Group> groups_;
};

}  // namespace wdl::fit
