#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "wdl/counts/position_key.hpp"

namespace wdl::counts {

// Counts per packed position key (see pack_key): an open-addressing hash table with
// linear probing. Its size follows the number of distinct keys, never the corpus size, and
// adding to an existing key allocates nothing.
class CountMap {
  public:
    CountMap();

    void add(std::uint64_t packed_key, std::uint64_t count = 1);
    // Adds one count of each key. The slots of the keys a few places ahead are fetched into
    // the cache meanwhile, which hides the memory's latency once the table outgrows the caches.
    void add_each(std::span<const std::uint64_t> packed_keys);
    void merge(const CountMap& other);

    // The count of a key; none for a key never added.
    std::optional<std::uint64_t> count_of(std::uint64_t packed_key) const;
    std::size_t distinct_keys() const { return size_; }
    std::uint64_t total_count() const;

    // Visits every (packed key, count) pair in unspecified order.
    template <typename Function>
    void for_each(Function&& function) const {
        for (const auto& slot : slots_)
            if (slot.key != kEmpty) function(slot.key, slot.count);
    }

  private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    static constexpr int kInitialBits = 12;
    struct Slot {
        std::uint64_t key = kEmpty;
        std::uint64_t count = 0;
    };

    void grow();
    std::size_t slot_index(std::uint64_t key) const;

    std::vector<Slot> slots_;
    int shift_;  // 64 - log2(slots_.size()): the hash's top bits pick the slot
    std::size_t size_ = 0;
};

}  // namespace wdl::counts
