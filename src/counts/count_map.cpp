#include "wdl/counts/count_map.hpp"

#include <sys/mman.h>

#include <new>

namespace wdl::counts {

CountMap::CountMap() : slots_(std::size_t{1} << kInitialBits), shift_(64 - kInitialBits) {}

void CountMap::add(std::uint64_t packed_key, std::uint64_t count) {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_index(packed_key);; i = (i + 1) & mask) {
        Slot& slot = slots_[i];
        if (slot.key == packed_key) {
            slot.count += count;
            return;
        }
        if (slot.key == kEmpty) {
            slot.key = packed_key;
            slot.count = count;
            if (++size_ * 2 > slots_.size()) grow();
            return;
        }
    }
}

void* CountMap::allocate_bytes(std::size_t bytes) {
    constexpr std::size_t huge_page = std::size_t{2} << 20;
    if (bytes < huge_page) {
        if (void* memory = std::malloc(bytes)) return memory;
        throw std::bad_alloc();
    }
    std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* memory = std::aligned_alloc(huge_page, rounded);
    if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(memory, rounded, MADV_HUGEPAGE);  // only a hint: no huge pages is no error
#endif
    return memory;
}

std::optional<std::uint64_t> CountMap::count_of(std::uint64_t packed_key) const {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_index(packed_key);; i = (i + 1) & mask) {
        if (slots_[i].key == packed_key) return slots_[i].count;
        if (slots_[i].key == kEmpty) return std::nullopt;
    }
}

void CountMap::grow() {
    std::vector<Slot, HugePageAllocator<Slot>> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    --shift_;
    size_ = 0;
    for (const auto& slot : old)
        if (slot.key != kEmpty) add(slot.key, slot.count);
}

void CountMap::merge(const CountMap& other) {
    other.for_each([this](std::uint64_t key, std::uint64_t count) { add(key, count); });
}

std::uint64_t CountMap::total_count() const {
    std::uint64_t total = 0;
    for_each([&](std::uint64_t, std::uint64_t count) { total += count; });
    return total;
}

}  // namespace wdl::counts
