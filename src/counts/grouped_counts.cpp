#include "wdl/counts/grouped_counts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wdl::counts {

GroupedCounts::GroupedCounts(const Grouping& grouping) : grouping_(grouping) {
    if (grouping.groups < 1 || grouping.groups > kMaxGroups)
        throw std::invalid_argument("grouped counts: " + std::to_string(grouping.groups) +
                                    " groups is outside 1 .. 65536");
}

std::size_t GroupedCounts::cell_index(std::uint64_t packed_key, int group) {
    std::uint64_t next_block = blocks_.distinct_keys();
    std::uint64_t block = blocks_.emplace(block_key(packed_key, group >> kBlockBits), next_block);
    std::size_t index = (std::size_t(block) << kBlockBits) + std::size_t(group) % kBlockCells;
    if (block == next_block && (index >> kChunkBits) == chunks_.size())
        chunks_.emplace_back(std::size_t{1} << kChunkBits);
    return index;
}

void GroupedCounts::add_to_cell(std::size_t index, std::uint64_t packed_key, int group,
                                std::uint64_t count) {
    std::uint16_t& counted = cell(index);
    std::uint64_t sum = counted + count;
    if (sum >= kCellLimit) {
        carries_.add(block_key(packed_key, group), sum - sum % kCellLimit);
        sum %= kCellLimit;
    }
    counted = std::uint16_t(sum);
}

void GroupedCounts::add(std::uint64_t packed_key, int group, std::uint64_t count) {
    if (group < 0 || group >= grouping_.groups)
        throw std::invalid_argument("grouped counts: group " + std::to_string(group) +
                                    " is beyond the groups");
    add_to_cell(cell_index(packed_key, group), packed_key, group, count);
}

void GroupedCounts::begin_game(int group) {
    if (group < 0 || group >= grouping_.groups)
        throw std::invalid_argument("grouped counts: group " + std::to_string(group) +
                                    " is beyond the groups");
    game_group_ = group;
    game_cells_.clear();
}

void GroupedCounts::commit_game(std::span<const std::uint64_t> game_keys) {
    while (game_cells_.size() < game_keys.size()) find_game_cell(game_keys[game_cells_.size()]);
    for (std::size_t i = 0; i < game_keys.size(); ++i)
        add_to_cell(game_cells_[i], game_keys[i], game_group_, 1);
    game_cells_.clear();
}

void GroupedCounts::merge(const GroupedCounts& other) {
    if (other.grouping_ != grouping_)
        throw std::invalid_argument("grouped counts: merging counts of another grouping");
    blocks_.reserve_like(other.blocks_);
    other.blocks_.for_each([&](std::uint64_t key, std::uint64_t block) {
        int first_group = first_group_of(key);
        std::size_t own = cell_index(key_of(key), first_group);
        const std::uint16_t* theirs = other.block_cells(block);
        for (int g = 0, width = width_of(key); g < width; ++g) {
            if (theirs[g] != 0)
                add_to_cell(own + std::size_t(g), key_of(key), first_group + g, theirs[g]);
        }
    });
    carries_.merge(other.carries_);
}

CountMap GroupedCounts::plain_counts() const {
    CountMap plain;
    plain.reserve_like(blocks_);
    for_each([&](std::uint64_t key, int, std::uint64_t count) { plain.add(key, count); });
    return plain;
}

std::size_t GroupedCounts::distinct_keys() const {
    // With one block per key and no carries, a key has a count when its block has one.
    if (grouping_.groups > int(kBlockCells) || carries_.distinct_keys() > 0)
        return plain_counts().distinct_keys();
    std::size_t keys = 0;
    for (std::uint64_t block = 0; block < blocks_.distinct_keys(); ++block) {
        const std::uint16_t* cells = block_cells(block);
        keys +=
            std::any_of(cells, cells + grouping_.groups, [](std::uint16_t cell) { return cell; });
    }
    return keys;
}

std::uint64_t GroupedCounts::total_count() const {
    std::uint64_t total = 0;
    for_each([&](std::uint64_t, int, std::uint64_t count) { total += count; });
    return total;
}

PositionCounts::PositionCounts(const std::optional<Grouping>& grouping) {
    if (grouping) grouped.emplace(*grouping);
}

void PositionCounts::merge(const PositionCounts& other) {
    if (grouped.has_value() != other.grouped.has_value())
        throw std::invalid_argument("position counts: merging plain and grouped counts");
    if (grouped) {
        grouped->merge(*other.grouped);
    } else {
        plain.merge(other.plain);
    }
}

std::size_t PositionCounts::distinct_keys() const {
    return grouped ? grouped->distinct_keys() : plain.distinct_keys();
}

std::uint64_t PositionCounts::total_count() const {
    return grouped ? grouped->total_count() : plain.total_count();
}

}  // namespace wdl::counts
