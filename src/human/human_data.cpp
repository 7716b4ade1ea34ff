#include "wdl/human/human_data.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace wdl::human {

int HumanData::groups_with_positions() const {
    std::vector<char> seen(std::size_t(std::max(groups, 1)), 0);
    for (const auto& cell : cells)
        if (cell.group >= 0 && cell.group < groups) seen[std::size_t(cell.group)] = 1;
    return int(std::count(seen.begin(), seen.end(), 1));
}

namespace {

// The groups holding positions numbered 0, 1, ... in the file's order: what is kept per group
// then grows with the data, not with a header's count of groups.
void renumber_groups(HumanData& data) {
    std::map<int, int> numbers;
    for (const auto& cell : data.cells) numbers.emplace(cell.group, 0);
    int next = 0;
    for (auto& [group, number] : numbers) number = next++;
    for (auto& cell : data.cells) cell.group = numbers[cell.group];
    data.groups = std::max(1, next);
}

}  // namespace

std::vector<HumanData> human_data_by_speed(const counts::HumanCounts& counts) {
    using UnitKey = std::pair<int, int>;  // material, rating + opponent rating
    using CellKey = std::tuple<std::uint32_t, int, int, int, int>;  // unit, group, cp, R, O
    struct Building {
        HumanData data;
        std::map<UnitKey, std::uint32_t> units;
        std::map<CellKey, std::size_t> cells;
    };
    std::map<counts::SpeedClass, Building> by_speed;
    for (const auto& cell : counts.cells) {
        const auto& key = cell.key;
        auto& building = by_speed[key.speed];
        auto& data = building.data;
        data.speed = key.speed;
        data.groups = counts.groups;
        if (key.position.eval == counts::kMateEval || key.position.eval == -counts::kMateEval) {
            data.mate_positions += double(cell.count);
            continue;
        }
        const UnitKey unit_key{key.position.material, key.rating + key.opponent_rating};
        auto [unit, new_unit] =
            building.units.try_emplace(unit_key, std::uint32_t(data.units.size()));
        if (new_unit)
            data.units.push_back(
                {unit_key.first, (unit_key.second / 2.0 - kLevelCentre) / kRatingScale});
        const CellKey cell_key{unit->second, cell.group, key.position.eval, key.rating,
                               key.opponent_rating};
        auto [slot, new_cell] = building.cells.try_emplace(cell_key, data.cells.size());
        if (new_cell) {
            data.cells.push_back(
                {unit->second, cell.group, key.position.eval, key.rating, key.opponent_rating, {}});
            if (data.cells.size() == 1) data.rating_min = data.rating_max = key.rating;
            data.rating_min = std::min(data.rating_min, key.rating);
            data.rating_max = std::max(data.rating_max, key.rating);
        }
        data.cells[slot->second].outcomes[std::size_t(key.position.result)] += double(cell.count);
        data.positions += double(cell.count);
    }
    std::vector<HumanData> result;
    for (auto& [speed, building] : by_speed) {
        renumber_groups(building.data);
        result.push_back(std::move(building.data));
    }
    return result;
}

}  // namespace wdl::human
