#include "wdl/fit/grouped_data.hpp"

#include <algorithm>

namespace wdl::fit {

GroupedData::GroupedData(const CountGrid& grid)
    : grid_(grid), total_(collect_mom_data(grid)), places_(grid.cell_count()) {
    for (std::size_t m = 0; m < total_.size(); ++m) {
        for (std::size_t c = 0; c < total_[m].cells.size(); ++c) {
            GridCell cell{total_[m].mom, int(total_[m].cells[c].eval)};
            places_[grid.cell_index(cell)] = {std::uint32_t(m), std::uint32_t(c)};
        }
    }
    std::vector<std::array<double, 3>> sums(grid.cell_count());
    for (std::size_t g = 0; g < grid.group_counts().size(); ++g) {
        Group group = collect_group(int(g), sums);
        if (group.positions > 0) groups_.push_back(std::move(group));
    }
}

GroupedData::Group GroupedData::collect_group(int file_group,
                                              std::vector<std::array<double, 3>>& sums) const {
    Group group;
    group.file_group = file_group;
    // Keys of several evals in cp may share an internal eval: sum them per cell first.
    std::vector<std::uint32_t> touched;
    for (const KeyCount& entry : grid_.group_counts()[std::size_t(file_group)]) {
        if (entry.count == 0) continue;
        auto& sum = sums[entry.cell];
        if (sum[0] == 0 && sum[1] == 0 && sum[2] == 0) touched.push_back(entry.cell);
        sum[std::size_t(counts::unpack_key(entry.key).result)] += double(entry.count);
        group.positions += double(entry.count);
    }
    group.cells.reserve(touched.size());
    for (std::uint32_t cell : touched) {
        auto [mom, place] = places_[cell];
        auto& sum = sums[cell];
        group.cells.push_back({mom, place, sum[0], sum[1], sum[2]});
        sum = {0, 0, 0};
    }
    return group;
}

std::vector<MomData> GroupedData::weighted(std::span<const double> weights) const {
    std::vector<MomData> moms = total_;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        double extra = weights[g] - 1.0;
        if (extra == 0) continue;
        for (const GroupCell& counted : groups_[g].cells) {
            Cell& cell = moms[counted.mom].cells[counted.cell];
            cell.wins += extra * counted.wins;
            cell.draws += extra * counted.draws;
            cell.losses += extra * counted.losses;
        }
    }
    for (MomData& mom : moms) {
        std::erase_if(mom.cells, [](const Cell& cell) { return cell.total() <= 0; });
        mom.wins = mom.total = 0;
        for (const Cell& cell : mom.cells) {
            mom.wins += cell.wins;
            mom.total += cell.total();
        }
    }
    return moms;
}

}  // namespace wdl::fit
