#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "wdl/counts/count_map.hpp"
#include "wdl/counts/grouping.hpp"
#include "wdl/util/huge_page_allocator.hpp"

namespace wdl::counts {

// Counts per (packed key, group) of a grouped scan. A key's counts of 64 consecutive groups
// lie side by side in one block of 16-bit cells, found through one hash probe: a scan counts
// into a table about as large as a plain scan's plus compact blocks, where one hash entry per
// (key, group) would be many times larger and slower. A cell's carries beyond 16 bits go to a
// side map. Blocks are stored in chunks of a huge page that never move.
class GroupedCounts {
  public:
    explicit GroupedCounts(const Grouping& grouping);

    const Grouping& grouping() const { return grouping_; }

    // Throws std::invalid_argument for a group outside 0 .. groups - 1.
    void add(std::uint64_t packed_key, int group, std::uint64_t count = 1);
    // One count for each key of a game, all in the game's group: begin_game, then
    // add_to_game(the game's keys so far) after each position, and commit_game(all its keys)
    // once the whole game is read (a game never committed adds nothing). The keys stay in the
    // caller's list. A key's cell is looked up kLookAhead keys later, by which time the hint
    // to load its hash slot has taken effect (a position takes about as long as a load from
    // memory), and its cell is hinted in turn: at the commit hardly a load waits for memory.
    // Throws std::invalid_argument for a group outside the groups.
    void begin_game(int group);
    void add_to_game(std::span<const std::uint64_t> game_keys) {
        blocks_.prefetch(block_key(game_keys.back(), game_group_ >> kBlockBits));
        if (game_keys.size() > game_cells_.size() + kLookAhead)
            find_game_cell(game_keys[game_cells_.size()]);
    }
    void commit_game(std::span<const std::uint64_t> game_keys);
    // Adds counts of the same grouping; throws std::invalid_argument for another grouping.
    void merge(const GroupedCounts& other);
    // Makes room for at least the other's blocks: do this before adding the counts of another
    // table in its for_each order (keys in the order of their hash would pile up in long runs of
    // probes in a smaller table).
    void reserve_like(const GroupedCounts& other) { blocks_.reserve_like(other.blocks_); }

    // Calls function(packed key, group, count) for every non-zero count, in unspecified order.
    template <typename Function>
    void for_each(Function&& function) const {
        blocks_.for_each([&](std::uint64_t block_key, std::uint64_t block) {
            visit_block(block_key, block, function);
        });
    }
    class OrderedCounts;
    // The counts arranged key by key in ascending order of order(packed key), as a grouped
    // file lists them.
    template <typename Order>
    OrderedCounts ordered(Order&& order) const;

    // The counts of each key over all groups: the plain scan's counts.
    CountMap plain_counts() const;
    // Distinct keys with a count, their groups left aside.
    std::size_t distinct_keys() const;
    std::uint64_t total_count() const;

  private:
    // Group g lies in block g / 64 at place g % 64.
    static constexpr int kBlockBits = 6;
    static constexpr std::size_t kBlockCells = std::size_t{1} << kBlockBits;
    static constexpr int kChunkBits = 20;  // cells of a chunk: 2 MiB, a huge page
    static constexpr std::uint64_t kCellLimit = std::uint64_t{1} << 16;
    static constexpr std::size_t kLookAhead = 8;
    using Chunk = std::vector<std::uint16_t, util::HugePageAllocator<std::uint16_t>>;

    // Blocks and carries are hashed by the packed key with a number in its unused top bits.
    static std::uint64_t block_key(std::uint64_t packed_key, int number) {
        return packed_key | (std::uint64_t(number) << 48);
    }
    static std::uint64_t key_of(std::uint64_t hashed) { return hashed & ((kCellLimit << 32) - 1); }
    static int first_group_of(std::uint64_t block_key) {
        return int(block_key >> 48) << kBlockBits;
    }

    // Cell number block * 64 + place.
    std::uint16_t& cell(std::size_t index) {
        return chunks_[index >> kChunkBits][index & ((std::size_t{1} << kChunkBits) - 1)];
    }
    const std::uint16_t* block_cells(std::uint64_t block) const {
        std::size_t index = std::size_t(block) << kBlockBits;
        return &chunks_[index >> kChunkBits][index & ((std::size_t{1} << kChunkBits) - 1)];
    }
    // The groups of a block that exist: 64, or fewer in the last block.
    int width_of(std::uint64_t block_key) const {
        return std::min(int(kBlockCells), grouping_.groups - first_group_of(block_key));
    }
    std::size_t cell_index(std::uint64_t packed_key, int group);
    void add_to_cell(std::size_t index, std::uint64_t packed_key, int group, std::uint64_t count);
    void find_game_cell(std::uint64_t packed_key) {
        game_cells_.push_back(cell_index(packed_key, game_group_));
        __builtin_prefetch(&cell(game_cells_.back()), 1);
    }
    std::uint64_t carried(std::uint64_t packed_key, int group) const {
        if (carries_.distinct_keys() == 0) return 0;
        return carries_.count_of(block_key(packed_key, group)).value_or(0);
    }
    template <typename Function>
    void visit_block(std::uint64_t block_key, std::uint64_t block, Function& function) const {
        std::uint64_t packed_key = key_of(block_key);
        int first_group = first_group_of(block_key);
        const std::uint16_t* cells = block_cells(block);
        for (int g = 0, width = width_of(block_key); g < width; ++g) {
            std::uint64_t count = cells[g] + carried(packed_key, first_group + g);
            if (count != 0) function(packed_key, first_group + g, count);
        }
    }

    Grouping grouping_;
    CountMap blocks_;            // block_key(key, group / 64) -> block number
    std::vector<Chunk> chunks_;  // the blocks' cells
    CountMap carries_;           // block_key(key, group) -> multiples of 2^16
    // The game being added: its group, and the cells of all its keys but the last few.
    int game_group_ = 0;
    std::vector<std::size_t> game_cells_;
};

class GroupedCounts::OrderedCounts {
  public:
    std::vector<std::uint64_t> keys;  // every key with a count, in the order asked for

    // Calls function(key number, count) for every non-zero count of the group, by key number.
    template <typename Function>
    void for_each_in_group(int group, Function&& function) const {
        const Column& column = columns_[std::size_t(group)];
        for (std::size_t i = 0; i < column.key_numbers.size(); ++i) {
            auto number = column.key_numbers[i];
            function(std::uint64_t(number),
                     column.cells[i] + counts_->carried(keys[number], group));
        }
    }

  private:
    friend class GroupedCounts;
    // One group's counts by key number: a group's pass reads them in sequence.
    struct Column {
        std::vector<std::uint32_t> key_numbers;
        std::vector<std::uint16_t> cells;  // and the carries of the key in the group
    };
    std::vector<Column> columns_;
    const GroupedCounts* counts_ = nullptr;
};

template <typename Order>
GroupedCounts::OrderedCounts GroupedCounts::ordered(Order&& order) const {
    struct Block {
        std::uint64_t order, block_key, block;
        bool operator<(const Block& other) const {
            return order != other.order ? order < other.order : block_key < other.block_key;
        }
    };
    std::vector<Block> blocks;
    blocks.reserve(blocks_.distinct_keys());
    blocks_.for_each([&](std::uint64_t block_key, std::uint64_t block) {
        blocks.push_back({order(key_of(block_key)), block_key, block});
    });
    std::sort(blocks.begin(), blocks.end());
    OrderedCounts ordered;
    ordered.columns_.resize(std::size_t(grouping_.groups));
    ordered.counts_ = this;
    constexpr std::size_t kAhead = 8;  // blocks lie at random: their loads overlap
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (i + kAhead < blocks.size()) {
            const std::uint16_t* ahead = block_cells(blocks[i + kAhead].block);
            __builtin_prefetch(ahead);
            __builtin_prefetch(ahead + kBlockCells / 2);
        }
        std::uint64_t key = key_of(blocks[i].block_key);
        bool numbered = !ordered.keys.empty() && ordered.keys.back() == key;
        std::size_t number = ordered.keys.size() - (numbered ? 1 : 0);
        if (number >= std::size_t{1} << 32)
            throw std::length_error("grouped counts: more than 2^32 keys");
        int first_group = first_group_of(blocks[i].block_key);
        const std::uint16_t* cells = block_cells(blocks[i].block);
        for (int g = 0, width = width_of(blocks[i].block_key); g < width; ++g) {
            if (cells[g] == 0 && carried(key, first_group + g) == 0) continue;
            auto& column = ordered.columns_[std::size_t(first_group + g)];
            column.key_numbers.push_back(std::uint32_t(number));
            column.cells.push_back(cells[g]);
            if (!numbered) ordered.keys.push_back(key);  // a key without counts has no number
            numbered = true;
        }
    }
    return ordered;
}

// The counts of positions by key, plain or split into groups: what a scan, a sample or a
// merge of count files yields.
struct PositionCounts {
    PositionCounts() = default;
    explicit PositionCounts(const std::optional<Grouping>& grouping);

    CountMap plain;                        // without groups
    std::optional<GroupedCounts> grouped;  // with groups: every count is here, none in plain

    // Adds to the key in the group (ignored when plain).
    void add(std::uint64_t packed_key, int group, std::uint64_t count = 1) {
        if (grouped) {
            grouped->add(packed_key, group, count);
        } else {
            plain.add(packed_key, count);
        }
    }
    void merge(const PositionCounts& other);
    // Distinct keys, their groups left aside.
    std::size_t distinct_keys() const;
    std::uint64_t total_count() const;
    // Calls function(packed key, group, count) for every count; group 0 for plain counts.
    template <typename Function>
    void for_each(Function&& function) const {
        if (grouped) return grouped->for_each(function);
        plain.for_each([&](std::uint64_t key, std::uint64_t count) { function(key, 0, count); });
    }
};

}  // namespace wdl::counts
