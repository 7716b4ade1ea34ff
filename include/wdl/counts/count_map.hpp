#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "wdl/counts/position_key.hpp"
#include "wdl/util/default_init_allocator.hpp"
#include "wdl/util/huge_page_allocator.hpp"

namespace wdl::counts {

// Counts per packed position key (see pack_key): an open-addressing hash table with
// linear probing. Its size follows the number of distinct keys, never the corpus size, and
// adding to an existing key allocates nothing.
class CountMap {
  public:
    CountMap();

    void add(std::uint64_t packed_key, std::uint64_t count = 1);
    // The count of a key, which is first set to `count` if the key is new: one probe either
    // way, so that the map can also number keys as they come.
    std::uint64_t emplace(std::uint64_t packed_key, std::uint64_t count);
    // A hint that the key will be added soon: starts loading its slot, so that a caller who
    // knows its keys ahead (a scanner, at the end of each game) does not wait for memory.
    void prefetch(std::uint64_t packed_key) const {
        __builtin_prefetch(&slots_[slot_index(packed_key)]);
    }
    // Grows the table to at least the other's size. Keys visited in another map's slot order
    // come in the order of their hash, which a smaller table would pile into long runs of
    // probes: do this before adding another map's keys (merge does).
    void reserve_like(const CountMap& other);
    // Adds every count of the other map. On threads, each takes a part of the other's slots
    // and adds to the keys this map has (every key has one slot, so no two threads write the
    // same count); keys new to this map are inserted after, on one thread.
    void merge(const CountMap& other, int threads = 1);
    // Forgets every key but keeps the table's size: a map emptied to disk (scan::
    // scan_human_files) fills again without growing again.
    void clear();

    // The count of a key; none for a key never added.
    std::optional<std::uint64_t> count_of(std::uint64_t packed_key) const;
    std::size_t distinct_keys() const { return size_; }
    std::uint64_t total_count() const;

    // Visits every (packed key, count) pair in unspecified order.
    template <typename Function>
    void for_each(Function&& function) const {
        for_each_in_part(0, 1, function);
    }
    // Visits the pairs of one of `parts` parts of the table, which together are every pair:
    // parts visited on threads at once.
    template <typename Function>
    void for_each_in_part(std::size_t part, std::size_t parts, Function&& function) const {
        const std::size_t end = slots_.size() * (part + 1) / parts;
        for (std::size_t i = slots_.size() * part / parts; i < end; ++i)
            if (slots_[i].key != kEmpty) function(slots_[i].key, slots_[i].count);
    }
    // The pairs of one of `parts` parts (as for_each_in_part), each made into an item by
    // make(packed key, count), in a vector that is not zeroed first: what a sort in parts lists.
    template <typename Item, typename Make>
    util::FillableVector<Item> list_part(std::size_t part, std::size_t parts, Make&& make) const {
        util::FillableVector<Item> items;
        items.reserve(size_ * 9 / 8 / parts + 16);  // hash parts hold about equal shares of keys
        for_each_in_part(part, parts, [&](std::uint64_t key, std::uint64_t count) {
            items.push_back(make(key, count));
        });
        return items;
    }
    // Slots, filled or empty: what for_each_in_part divides into parts.
    std::size_t capacity() const { return slots_.size(); }

  private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    static constexpr int kInitialBits = 12;
    struct Slot {
        std::uint64_t key = kEmpty;
        std::uint64_t count = 0;
    };

    void grow();
    // The index of the slot holding the key; none for a key never added.
    std::optional<std::size_t> slot_of(std::uint64_t packed_key) const;
    std::size_t slot_index(std::uint64_t key) const {
        // Fibonacci hashing spreads the structured packed keys over the table.
        return std::size_t((key * 0x9E3779B97F4A7C15ull) >> shift_);
    }

    std::vector<Slot, util::HugePageAllocator<Slot>> slots_;
    int shift_;  // 64 - log2(slots_.size()): the hash's top bits pick the slot
    std::size_t size_ = 0;
};

}  // namespace wdl::counts
