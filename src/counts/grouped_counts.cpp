#include "wdl/counts/grouped_counts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "wdl/util/radix_sort.hpp"

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
    Cell& counted = cell(index);
    std::uint64_t sum = counted + count;
    if (sum >= kCellLimit) {
        carries_.add(block_key(packed_key, group), sum - sum % kCellLimit);
        mark_carries(index >> kBlockBits);
        sum %= kCellLimit;
    }
    counted = Cell(sum);
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
    // The merge is serial time at the end of a scan with threads: its loads from memory (a
    // hash slot and a block of cells a key, both at random) are hinted some blocks ahead, and
    // a block's cells are added at once.
    blocks_.reserve_like(other.blocks_);
    struct Theirs {
        std::uint64_t block_key, block;
    };
    std::vector<Theirs> theirs;
    theirs.reserve(other.blocks_.distinct_keys());
    other.blocks_.for_each([&](std::uint64_t key, std::uint64_t block) {
        theirs.push_back({key, block});
    });
    constexpr std::size_t kAhead = 8;
    std::vector<std::size_t> own(theirs.size());
    for (std::size_t i = 0; i < theirs.size(); ++i) {
        if (i + kAhead < theirs.size()) blocks_.prefetch(theirs[i + kAhead].block_key);
        own[i] = cell_index(key_of(theirs[i].block_key), first_group_of(theirs[i].block_key));
    }
    for (std::size_t i = 0; i < theirs.size(); ++i) {
        if (i + kAhead < theirs.size()) {
            __builtin_prefetch(&cell(own[i + kAhead]), 1);
            __builtin_prefetch(other.block_cells(theirs[i + kAhead].block));
        }
        add_block(own[i], theirs[i].block_key, other.block_cells(theirs[i].block));
    }
    other.carries_.for_each([&](std::uint64_t key, std::uint64_t carry) {
        int group = int(key >> 48);  // a carry's number is its group
        carries_.add(key, carry);
        mark_carries(cell_index(key_of(key), group) >> kBlockBits);
    });
}

void GroupedCounts::add_block(std::size_t index, std::uint64_t block_key, const Cell* theirs) {
    Cell* mine = &cell(index);
    const int width = width_of(block_key);
    bool carry = false;
    for (int g = 0; g < width; ++g) carry |= unsigned(mine[g]) + theirs[g] >= kCellLimit;
    if (!carry) {
        for (int g = 0; g < width; ++g) mine[g] = Cell(mine[g] + theirs[g]);
        return;
    }
    for (int g = 0; g < width; ++g) {
        if (theirs[g] != 0)
            add_to_cell(index + std::size_t(g), key_of(block_key), first_group_of(block_key) + g,
                        theirs[g]);
    }
}

GroupedCounts::KeyOrder GroupedCounts::in_key_order() const {
    KeyOrder order;
    order.counts_ = this;
    order.blocks_.reserve(blocks_.distinct_keys());
    blocks_.for_each([&](std::uint64_t block_key, std::uint64_t block) {
        order.blocks_.push_back({block_key, block});
    });
    // A block key holds the number of its groups' block above the key: turned below it, they
    // sort by key and then by group.
    util::radix_sort(order.blocks_, [](const KeyOrder::Block& entry) {
        return (key_of(entry.block_key) << 16) | (entry.block_key >> 48);
    });
    for (std::size_t i = 0; i < order.blocks_.size(); ++i) {
        if (i == 0 || key_of(order.blocks_[i].block_key) != key_of(order.blocks_[i - 1].block_key))
            order.key_starts_.push_back(i);
    }
    order.key_starts_.push_back(order.blocks_.size());
    return order;
}

CountMap GroupedCounts::plain_counts() const {
    CountMap plain;
    plain.reserve_like(blocks_);
    for_each([&](std::uint64_t key, int, std::uint64_t count) { plain.add(key, count); });
    return plain;
}

std::size_t GroupedCounts::distinct_keys() const {
    // With one block per key, a key has a count when its block has a cell or a carry.
    if (grouping_.groups > int(kBlockCells)) return plain_counts().distinct_keys();
    std::size_t keys = 0;
    for (std::uint64_t block = 0; block < blocks_.distinct_keys(); ++block) {
        const Cell* cells = block_cells(block);
        keys += has_carries(block) ||
                std::any_of(cells, cells + grouping_.groups, [](Cell cell) { return cell != 0; });
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
