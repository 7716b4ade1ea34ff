#include "wdl/fit/grouped_data.hpp"

#include <algorithm>
#include <tuple>

namespace wdl::fit {

GroupedData::GroupedData(const CountGrid& grid) : grid_(grid), total_(collect_mom_data(grid)) {
    for (std::size_t g = 0; g < grid.group_counts().size(); ++g) {
        Group group = collect_group(int(g));
        if (group.positions > 0) groups_.push_back(std::move(group));
    }
}

GroupedData::Group GroupedData::collect_group(int file_group) const {
    Group group;
    group.file_group = file_group;
    for (const KeyCount& entry : grid_.group_counts()[std::size_t(file_group)]) {
        if (entry.count == 0) continue;
        counts::PositionKey key = counts::unpack_key(entry.key);
        GridCell at = *grid_.cell_of(key);  // the grid kept only retained keys
        auto mom = std::uint32_t(at.mom - grid_.mom_min());
        const auto& cells = total_[mom].cells;
        auto cell = std::lower_bound(cells.begin(), cells.end(), double(at.eval),
                                     [](const Cell& c, double eval) { return c.eval < eval; });
        GroupCell counted{mom, std::uint32_t(cell - cells.begin())};
        double count = double(entry.count);
        (key.result == counts::Outcome::Win    ? counted.wins
         : key.result == counts::Outcome::Draw ? counted.draws
                                               : counted.losses) = count;
        group.cells.push_back(counted);
        group.positions += count;
    }
    // One entry per cell: keys of several evals in cp may share an internal eval.
    std::sort(group.cells.begin(), group.cells.end(), [](const GroupCell& a, const GroupCell& b) {
        return std::tie(a.mom, a.cell) < std::tie(b.mom, b.cell);
    });
    std::vector<GroupCell> merged;
    for (const GroupCell& cell : group.cells) {
        if (!merged.empty() && merged.back().mom == cell.mom && merged.back().cell == cell.cell) {
            merged.back().wins += cell.wins;
            merged.back().draws += cell.draws;
            merged.back().losses += cell.losses;
        } else {
            merged.push_back(cell);
        }
    }
    group.cells = std::move(merged);
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
