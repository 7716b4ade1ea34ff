#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "wdl/counts/count_map.hpp"
#include "wdl/counts/grouping.hpp"
#include "wdl/util/default_init_allocator.hpp"
#include "wdl/util/huge_page_allocator.hpp"

namespace wdl::counts {

// Counts per (packed key, group) of a grouped scan. A key's counts of 64 consecutive groups
// lie side by side in one block of 8-bit cells, one cache line found through one hash probe: a
// scan counts into a table about as large as a plain scan's plus compact blocks, where one hash
// entry per (key, group) would be many times larger and slower. A cell's carries beyond 8 bits
// go to a side map (most cells of a scan hold a count or two). Blocks are stored in chunks of a
// huge page that never move.
class GroupedCounts {
  public:
    explicit GroupedCounts(const Grouping& grouping);

    const Grouping& grouping() const { return grouping_; }

    // Throws std::invalid_argument for a group outside 0 .. groups - 1.
    void add(std::uint64_t packed_key, int group, std::uint64_t count = 1);
    // One count for each key of a game, all in the game's group: begin_game, then
    // add_to_game(the game's keys so far) after each position, and commit_game(all its keys)
    // once the whole game is read (a game never committed adds nothing). The keys stay in the
    // caller's list. add_to_game hints the cache to load the new key's hash slot (reading a
    // position takes about as long as a load from memory); the commit finds every key's cell,
    // hinting it in turn, before it adds to the first: hardly a load waits for memory.
    // Throws std::invalid_argument for a group outside the groups.
    void begin_game(int group);
    void add_to_game(std::span<const std::uint64_t> game_keys) {
        blocks_.prefetch(block_key(game_keys.back(), game_group_ >> kBlockBits));
    }
    void commit_game(std::span<const std::uint64_t> game_keys);
    // Adds counts of the same grouping, on up to `threads` threads; throws
    // std::invalid_argument for another grouping.
    void merge(const GroupedCounts& other, int threads = 1);
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
    class KeyOrder;
    // The keys in ascending order of their packed value, each with its counts in the order of
    // its groups, as a grouped file lists them. Sorted in parts on the threads.
    KeyOrder in_key_order(int threads = 1) const;

    // The counts of each key over all groups: the plain scan's counts.
    CountMap plain_counts() const;
    // Distinct keys with a count, their groups left aside.
    std::size_t distinct_keys() const;
    std::uint64_t total_count() const;

  private:
    using Cell = std::uint8_t;
    // Group g lies in block g / 64 at place g % 64.
    static constexpr int kBlockBits = 6;
    static constexpr std::size_t kBlockCells = std::size_t{1} << kBlockBits;
    static constexpr int kChunkBits = 21;  // cells of a chunk: 2 MiB, a huge page
    static constexpr std::uint64_t kCellLimit = std::uint64_t{1} << 8;
    using Chunk = std::vector<Cell, util::HugePageAllocator<Cell>>;

    // Blocks and carries are hashed by the packed key with a number in its unused top bits.
    static std::uint64_t block_key(std::uint64_t packed_key, int number) {
        return packed_key | (std::uint64_t(number) << 48);
    }
    static std::uint64_t key_of(std::uint64_t hashed) {
        return hashed & ((std::uint64_t{1} << 48) - 1);
    }
    static int first_group_of(std::uint64_t block_key) {
        return int(block_key >> 48) << kBlockBits;
    }

    // Cell number block * 64 + place.
    Cell& cell(std::size_t index) {
        return chunks_[index >> kChunkBits][index & ((std::size_t{1} << kChunkBits) - 1)];
    }
    const Cell* block_cells(std::uint64_t block) const {
        std::size_t index = std::size_t(block) << kBlockBits;
        return &chunks_[index >> kChunkBits][index & ((std::size_t{1} << kChunkBits) - 1)];
    }
    Cell* block_cells(std::uint64_t block) { return &cell(std::size_t(block) << kBlockBits); }
    // The groups of a block that exist: 64, or fewer in the last block.
    int width_of(std::uint64_t block_key) const {
        return std::min(int(kBlockCells), grouping_.groups - first_group_of(block_key));
    }
    std::size_t cell_index(std::uint64_t packed_key, int group);
    void add_to_cell(std::size_t index, std::uint64_t packed_key, int group, std::uint64_t count);
    // Adds a block's cells to another's unless a cell would carry (then adds none). Whole
    // blocks: cells past the groups are zero in both.
    static bool add_cells(Cell* mine, const Cell* theirs);
    // Adds the cells of another table's block of the same key and groups to the block at index.
    void add_block(std::size_t index, std::uint64_t block_key, const Cell* theirs);
    std::uint64_t carried(std::uint64_t packed_key, int group) const {
        return carries_.count_of(block_key(packed_key, group)).value_or(0);
    }
    bool has_carries(std::uint64_t block) const {
        return block < carried_blocks_.size() && carried_blocks_[block];
    }
    void mark_carries(std::uint64_t block) {
        if (block >= carried_blocks_.size()) carried_blocks_.resize(block + 1);
        carried_blocks_[block] = true;
    }
    // The cells of the block that are not zero, as bits.
    std::uint64_t filled_cells(std::uint64_t block_key, const Cell* cells) const {
        std::uint64_t filled = 0;
        if (width_of(block_key) == int(kBlockCells)) {
            // Eight cells at a time: the top bit of each byte that is not zero, then the eight
            // bits side by side (each lands in the top byte at its own place).
            constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7f, kTop = 0x8080808080808080;
            for (std::size_t word = 0; word < kBlockCells / 8; ++word) {
                std::uint64_t bytes;
                std::memcpy(&bytes, cells + 8 * word, sizeof bytes);
                std::uint64_t top = (bytes | ((bytes & kLow7) + kLow7)) & kTop;
                filled |= (((top >> 7) * 0x0102040810204080) >> 56) << (8 * word);
            }
            return filled;
        }
        for (int g = 0, width = width_of(block_key); g < width; ++g)
            filled |= std::uint64_t(cells[g] != 0) << g;
        return filled;
    }
    template <typename Function>
    void visit_block(std::uint64_t block_key, std::uint64_t block, Function&& function) const {
        std::uint64_t packed_key = key_of(block_key);
        int first_group = first_group_of(block_key);
        const Cell* cells = block_cells(block);
        const int width = width_of(block_key);
        if (!has_carries(block)) {
            // Without carries a count is its cell: the filled cells are found in one sweep.
            for (std::uint64_t filled = filled_cells(block_key, cells); filled != 0;
                 filled &= filled - 1) {
                int g = std::countr_zero(filled);
                function(packed_key, first_group + g, std::uint64_t(cells[g]));
            }
            return;
        }
        for (int g = 0; g < width; ++g) {
            std::uint64_t count = cells[g] + carried(packed_key, first_group + g);
            if (count != 0) function(packed_key, first_group + g, count);
        }
    }

    Grouping grouping_;
    CountMap blocks_;                   // block_key(key, group / 64) -> block number
    std::vector<Chunk> chunks_;         // the blocks' cells
    CountMap carries_;                  // block_key(key, group) -> multiples of 2^8
    std::vector<bool> carried_blocks_;  // by block number: whether it has carries
    // The game being added: its group, and at its commit the cells of its keys.
    int game_group_ = 0;
    std::vector<Cell*> game_cells_;
};

class GroupedCounts::KeyOrder {
  public:
    // Keys numbered 0 .. keys() - 1; a key may have blocks but no count left (none is called
    // for it).
    std::size_t keys() const { return key_starts_.empty() ? 0 : key_starts_.size() - 1; }
    std::uint64_t key(std::size_t number) const {
        return key_of(blocks_[key_starts_[number]].block_key);
    }
    // Hints the cache to load the key's cells, which lie at random: a walk through the keys
    // that asks for them some keys ahead overlaps the loads.
    void prefetch(std::size_t number) const {
        __builtin_prefetch(counts_->block_cells(blocks_[key_starts_[number]].block));
    }
    // For a key whose counts all lie in groups 0-63, in one block without carries (nearly every
    // key of a scan with up to 64 groups): its groups with a count as bits, and the block's cells
    // (a count each). False for any other key.
    bool single_block(std::size_t number, std::uint64_t& filled, const std::uint8_t*& cells) const {
        if (key_starts_[number + 1] - key_starts_[number] != 1) return false;
        const Block& block = blocks_[key_starts_[number]];
        if (first_group_of(block.block_key) != 0 || counts_->has_carries(block.block)) return false;
        cells = counts_->block_cells(block.block);
        filled = counts_->filled_cells(block.block_key, cells);
        return true;
    }
    // Calls function(group, count) for every non-zero count of the key, by ascending group.
    template <typename Function>
    void for_each_of_key(std::size_t number, Function&& function) const {
        for (std::size_t i = key_starts_[number]; i < key_starts_[number + 1]; ++i) {
            counts_->visit_block(blocks_[i].block_key, blocks_[i].block,
                                 [&function](std::uint64_t, int group, std::uint64_t count) {
                                     function(group, count);
                                 });
        }
    }

  private:
    friend class GroupedCounts;
    struct Block {
        std::uint64_t block_key, block;
    };
    util::FillableVector<Block> blocks_;   // by key, then by first group
    std::vector<std::size_t> key_starts_;  // each key's first block, and the end
    const GroupedCounts* counts_ = nullptr;
};

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
    // Grouped counts are merged on up to `threads` threads.
    void merge(const PositionCounts& other, int threads = 1);
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
