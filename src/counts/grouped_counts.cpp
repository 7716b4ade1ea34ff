#include "wdl/counts/grouped_counts.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "wdl/util/parallel_for.hpp"
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
}

void GroupedCounts::commit_game(std::span<const std::uint64_t> game_keys) {
    game_cells_.clear();
    for (std::uint64_t key : game_keys) {
        game_cells_.push_back(&cell(cell_index(key, game_group_)));
        __builtin_prefetch(game_cells_.back(), 1);
    }
    for (std::size_t i = 0; i < game_keys.size(); ++i) {
        if (*game_cells_[i] < kCellLimit - 1) {
            ++*game_cells_[i];
        } else {  // a carry, one add in 256 at most: the cell's number is looked up again
            add_to_cell(cell_index(game_keys[i], game_group_), game_keys[i], game_group_, 1);
        }
    }
}

void GroupedCounts::merge(const GroupedCounts& other, int threads) {
    if (other.grouping_ != grouping_)
        throw std::invalid_argument("grouped counts: merging counts of another grouping");
    // The merge is serial time at the end of a scan with threads, and the threads of a scan see
    // nearly the same keys: adding to a block that exists touches only that block's cells, so
    // their blocks are added a piece per thread. A new block (an insert into the table) or a
    // cell that carries (the side map) waits for the serial pass after. Loads from memory (a
    // hash slot and a block of cells a key, both at random) are hinted some blocks ahead.
    blocks_.reserve_like(other.blocks_);
    struct Theirs {
        std::uint64_t block_key, block;
    };
    constexpr std::size_t kAhead = 8, kPieceSlots = std::size_t{1} << 15;
    constexpr std::uint64_t kNew = ~std::uint64_t{0};
    const std::size_t pieces = (other.blocks_.capacity() + kPieceSlots - 1) / kPieceSlots;
    std::vector<std::vector<Theirs>> left_over(pieces);
    util::parallel_for(pieces, threads, [&](std::size_t, std::size_t piece) {
        std::vector<Theirs> theirs;
        other.blocks_.for_each_in_part(piece, pieces, [&](std::uint64_t key, std::uint64_t block) {
            theirs.push_back({key, block});
        });
        std::vector<std::uint64_t> own(theirs.size());
        std::vector<Theirs> left;  // not left_over[piece]: its neighbours are other threads'
        for (std::size_t i = 0; i < theirs.size(); ++i) {
            if (i + kAhead < theirs.size()) blocks_.prefetch(theirs[i + kAhead].block_key);
            own[i] = blocks_.count_of(theirs[i].block_key).value_or(kNew);
        }
        for (std::size_t i = 0; i < theirs.size(); ++i) {
            if (i + kAhead < theirs.size()) {
                if (own[i + kAhead] != kNew) __builtin_prefetch(block_cells(own[i + kAhead]), 1);
                __builtin_prefetch(other.block_cells(theirs[i + kAhead].block));
            }
            if (own[i] == kNew ||
                !add_cells(block_cells(own[i]), other.block_cells(theirs[i].block)))
                left.push_back(theirs[i]);
        }
        left_over[piece] = std::move(left);
    });
    for (const auto& piece : left_over) {
        for (const Theirs& block : piece) {
            std::size_t index =
                cell_index(key_of(block.block_key), first_group_of(block.block_key));
            add_block(index, block.block_key, other.block_cells(block.block));
        }
    }
    other.carries_.for_each([&](std::uint64_t key, std::uint64_t carry) {
        int group = int(key >> 48);  // a carry's number is its group
        carries_.add(key, carry);
        mark_carries(cell_index(key_of(key), group) >> kBlockBits);
    });
}

bool GroupedCounts::add_cells(Cell* mine, const Cell* theirs) {
    // A fixed length, so that the compiler adds and compares 16 cells at a time: a sum that
    // carries wraps below the cell it was added to.
    Cell carry = 0;
    for (std::size_t g = 0; g < kBlockCells; ++g) carry |= Cell(mine[g] + theirs[g]) < mine[g];
    if (carry) return false;
    for (std::size_t g = 0; g < kBlockCells; ++g) mine[g] = Cell(mine[g] + theirs[g]);
    return true;
}

void GroupedCounts::add_block(std::size_t index, std::uint64_t block_key, const Cell* theirs) {
    if (add_cells(&cell(index), theirs)) return;
    for (int g = 0; g < width_of(block_key); ++g) {
        if (theirs[g] != 0)
            add_to_cell(index + std::size_t(g), key_of(block_key), first_group_of(block_key) + g,
                        theirs[g]);
    }
}

GroupedCounts::KeyOrder GroupedCounts::in_key_order(int threads) const {
    const std::size_t parts = util::sorting_parts(blocks_.distinct_keys(), threads);
    auto list_part = [&](std::size_t part) {
        return blocks_.list_part<KeyOrder::Block>(part, parts,
                                                  [](std::uint64_t block_key, std::uint64_t block) {
                                                      return KeyOrder::Block{block_key, block};
                                                  });
    };
    // A block key holds the number of its groups' block above the key: turned below it, they
    // sort by key and then by group.
    auto key_then_group = [](const KeyOrder::Block& entry) {
        return (key_of(entry.block_key) << 16) | (entry.block_key >> 48);
    };
    KeyOrder order;
    order.counts_ = this;
    order.blocks_ = util::sort_in_runs<KeyOrder::Block>(parts, threads, list_part, key_then_group)
                        .merged(threads);
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
    // Cells beyond the groups stay zero, so a block is empty when its eight words are.
    std::size_t keys = 0;
    for (std::uint64_t block = 0; block < blocks_.distinct_keys(); ++block) {
        std::uint64_t words[kBlockCells / 8];
        std::memcpy(words, block_cells(block), sizeof words);
        std::uint64_t any = 0;
        for (std::uint64_t word : words) any |= word;
        keys += any != 0 || has_carries(block);
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

void PositionCounts::merge(const PositionCounts& other, int threads) {
    if (grouped.has_value() != other.grouped.has_value())
        throw std::invalid_argument("position counts: merging plain and grouped counts");
    if (grouped) {
        grouped->merge(*other.grouped, threads);
    } else {
        plain.merge(other.plain, threads);
    }
}

std::size_t PositionCounts::distinct_keys() const {
    return grouped ? grouped->distinct_keys() : plain.distinct_keys();
}

std::uint64_t PositionCounts::total_count() const {
    return grouped ? grouped->total_count() : plain.total_count();
}

}  // namespace wdl::counts
