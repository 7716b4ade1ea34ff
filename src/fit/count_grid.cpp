#include "wdl/fit/count_grid.hpp"

#include <algorithm>
#include <cstdlib>

namespace wdl::fit {

using counts::Outcome;
using counts::PositionKey;
using model::Normalization;

CountGrid::CountGrid(const GridFilter& filter, const model::Normalization& normalization,
                     bool keep_groups)
    : filter_(filter), normalization_(normalization), keep_groups_(keep_groups) {
    bool by_move = filter.mom_type == MomType::Move;
    mom_min_ = by_move ? filter.move_min : filter.material_min;
    int mom_max = by_move ? filter.move_max : filter.material_max;
    mom_count_ = std::max(0, mom_max - mom_min_ + 1);
    // The bound converts as the evals do: a truncated display's evalMax keeps all it printed.
    eval_max_ =
        int(normalization.to_internal_with_scale(filter.eval_max_cp, normalization.pawn_value()));
    if (eval_max_ >= 0) cells_.resize(std::size_t(mom_count_) * eval_span());

    const auto& dynamic = normalization.dynamic();
    scale_by_move_ = dynamic && dynamic->mom_type == MomType::Move;
    scale_offset_ = scale_by_move_ ? filter.move_min : filter.material_min;
    int scale_max = scale_by_move_ ? filter.move_max : filter.material_max;
    for (int mom = scale_offset_; mom <= scale_max; ++mom) {
        scales_.push_back(normalization.pawn_scale(mom, mom));
    }
}

std::optional<GridCell> CountGrid::cell_of(const PositionKey& key) const {
    if (key.move < filter_.move_min || key.move > filter_.move_max) return std::nullopt;
    if (key.material < filter_.material_min || key.material > filter_.material_max)
        return std::nullopt;
    double scale = scales_[std::size_t((scale_by_move_ ? key.move : key.material) - scale_offset_)];
    // Checked before narrowing: a huge eval in a count file must not wrap into the grid.
    double eval = normalization_.to_internal_with_scale(key.eval, scale);
    if (!(std::abs(eval) <= eval_max_)) return std::nullopt;
    return GridCell{filter_.mom_type == MomType::Move ? key.move : key.material, int(eval)};
}

void CountGrid::add(const PositionKey& key, std::int64_t count) {
    if (auto cell = cell_of(key)) add_at(*cell, key.result, count);
}

void CountGrid::add_at(const GridCell& at, Outcome result, std::int64_t count) {
    WdlCounts& cell = cells_[cell_index(at)];
    switch (result) {
        case Outcome::Win:
            cell.wins = util::checked_sum(cell.wins, count);
            break;
        case Outcome::Draw:
            cell.draws = util::checked_sum(cell.draws, count);
            break;
        case Outcome::Loss:
            cell.losses = util::checked_sum(cell.losses, count);
            break;
    }
}

void CountGrid::add_to_group(int group, const PositionKey& key, std::int64_t count) {
    add_to_groups(key, std::span(&group, 1), std::span(&count, 1));
}

// The key's cell is found once for all its groups: a grouped file of games lists a key in a
// few groups on average, so loading it costs about as much as loading the plain file.
void CountGrid::add_to_groups(const PositionKey& key, std::span<const int> groups,
                              std::span<const std::int64_t> counts) {
    auto cell = cell_of(key);
    if (!cell) return;
    std::int64_t total = 0;
    for (std::int64_t count : counts) total = util::checked_sum(total, count);
    add_at(*cell, key.result, total);
    if (!keep_groups_) return;
    std::uint64_t packed = counts::pack_key(key);
    auto index = cell_index(*cell);
    for (std::size_t i = 0; i < groups.size(); ++i) {
        auto group = std::size_t(groups[i]);
        if (group >= group_counts_.size()) group_counts_.resize(group + 1);
        group_counts_[group].push_back({packed, counts[i], index});
    }
}

std::unique_ptr<CountGrid> CountGrid::blank_grid() const {
    return std::make_unique<CountGrid>(filter_, normalization_, keep_groups_);
}

void CountGrid::merge(const counts::CountTarget& part) {
    const auto& other = dynamic_cast<const CountGrid&>(part);
    for (std::size_t i = 0; i < cells_.size(); ++i) cells_[i].add(other.cells_[i]);
    if (group_counts_.size() < other.group_counts_.size())
        group_counts_.resize(other.group_counts_.size());
    for (std::size_t g = 0; g < other.group_counts_.size(); ++g) {
        group_counts_[g].insert(group_counts_[g].end(), other.group_counts_[g].begin(),
                                other.group_counts_[g].end());
    }
}

WdlCounts CountGrid::totals_at_mom(int mom) const {
    WdlCounts sum;
    if (eval_max_ < 0) return sum;
    for (int eval = -eval_max_; eval <= eval_max_; ++eval) {
        sum.add(at(mom, eval));
    }
    return sum;
}

WdlCounts CountGrid::totals() const {
    WdlCounts sum;
    for (const WdlCounts& cell : cells_) sum.add(cell);
    return sum;
}

}  // namespace wdl::fit
