#include "wdl/counts/count_map.hpp"

#include "wdl/util/parallel_for.hpp"

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

std::uint64_t CountMap::emplace(std::uint64_t packed_key, std::uint64_t count) {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_index(packed_key);; i = (i + 1) & mask) {
        Slot& slot = slots_[i];
        if (slot.key == packed_key) return slot.count;
        if (slot.key == kEmpty) {
            slot.key = packed_key;
            slot.count = count;
            if (++size_ * 2 > slots_.size()) grow();
            return count;
        }
    }
}

std::optional<std::size_t> CountMap::slot_of(std::uint64_t packed_key) const {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_index(packed_key);; i = (i + 1) & mask) {
        if (slots_[i].key == packed_key) return i;
        if (slots_[i].key == kEmpty) return std::nullopt;
    }
}

std::optional<std::uint64_t> CountMap::count_of(std::uint64_t packed_key) const {
    auto slot = slot_of(packed_key);
    return slot ? std::optional(slots_[*slot].count) : std::nullopt;
}

void CountMap::grow() {
    std::vector<Slot, util::HugePageAllocator<Slot>> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    --shift_;
    size_ = 0;
    for (const auto& slot : old)
        if (slot.key != kEmpty) add(slot.key, slot.count);
}

void CountMap::clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
}

void CountMap::reserve_like(const CountMap& other) {
    while (slots_.size() < other.slots_.size()) grow();
}

void CountMap::merge(const CountMap& other, int threads) {
    reserve_like(other);
    if (threads <= 1) {
        other.for_each([this](std::uint64_t key, std::uint64_t count) { add(key, count); });
        return;
    }
    const std::size_t parts = std::size_t(threads);
    std::vector<std::vector<Slot>> new_keys(parts);
    util::parallel_for(parts, threads, [&](std::size_t, std::size_t part) {
        std::vector<Slot> fresh;  // not new_keys[part]: its neighbours are other threads'
        other.for_each_in_part(part, parts, [&](std::uint64_t key, std::uint64_t count) {
            if (auto slot = slot_of(key)) {
                slots_[*slot].count += count;
            } else {
                fresh.push_back({key, count});
            }
        });
        new_keys[part] = std::move(fresh);
    });
    for (const auto& part : new_keys)
        for (const Slot& slot : part) add(slot.key, slot.count);
}

std::uint64_t CountMap::total_count() const {
    std::uint64_t total = 0;
    for_each([&](std::uint64_t, std::uint64_t count) { total += count; });
    return total;
}

}  // namespace wdl::counts
