#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace wdl::util {

// Sorts the items by key_of(item), an unsigned 64-bit number, byte by byte from the lowest (a
// stable LSD radix sort): several times faster than a comparison sort of the hundreds of
// thousands of keys a scan writes, which is time the scan waits for on one thread. A byte
// that all keys share takes no pass.
template <typename Item, typename KeyOf>
void radix_sort(std::vector<Item>& items, KeyOf&& key_of) {
    std::vector<Item> buffer(items.size());
    for (int shift = 0; shift < 64; shift += 8) {
        std::array<std::size_t, 256> starts{};
        for (const Item& item : items) ++starts[(key_of(item) >> shift) & 0xff];
        if (std::ranges::find(starts, items.size()) != starts.end()) continue;
        std::size_t start = 0;
        for (auto& bucket : starts) start += std::exchange(bucket, start);
        for (const Item& item : items) buffer[starts[(key_of(item) >> shift) & 0xff]++] = item;
        items.swap(buffer);
    }
}

}  // namespace wdl::util
