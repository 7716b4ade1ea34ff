#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "wdl/util/default_init_allocator.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::util {

// Sorts the items (a vector) by key_of(item), an unsigned 64-bit number, 11 bits at a time from
// the lowest (a stable LSD radix sort): several times faster than a comparison sort of the
// hundreds of thousands of keys a scan writes, which is time the scan waits for. The counts of
// every digit are taken in one pass first, and a digit that all keys share takes no pass.
template <typename Items, typename KeyOf>
void radix_sort(Items& items, KeyOf&& key_of) {
    constexpr int kDigitBits = 11, kDigits = (64 + kDigitBits - 1) / kDigitBits;
    constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
    auto digit = [&](const auto& item, int d) {
        return std::size_t(std::uint64_t(key_of(item)) >> (d * kDigitBits)) & (kBuckets - 1);
    };
    std::vector<std::array<std::size_t, kBuckets>> starts(kDigits);
    for (const auto& item : items)
        for (int d = 0; d < kDigits; ++d) ++starts[std::size_t(d)][digit(item, d)];
    Items buffer;
    for (int d = 0; d < kDigits; ++d) {
        auto& digit_starts = starts[std::size_t(d)];
        if (std::ranges::find(digit_starts, items.size()) != digit_starts.end()) continue;
        if (buffer.size() != items.size()) buffer = Items(items.size());
        std::size_t start = 0;
        for (auto& bucket : digit_starts) start += std::exchange(bucket, start);
        for (const auto& item : items) buffer[digit_starts[digit(item, d)]++] = item;
        items.swap(buffer);
    }
}

// Merges runs, each sorted by key_of, into one sorted list on up to `threads` threads. The
// list is cut at evenly spaced keys of the longest run; each thread merges the items of every
// run between two cuts straight into their final place. Items of equal keys keep the order of
// their runs.
template <typename Item, typename KeyOf>
FillableVector<Item> merge_sorted_runs(const std::vector<FillableVector<Item>>& runs, int threads,
                                       KeyOf&& key_of) {
    std::size_t total = 0;
    const FillableVector<Item>* longest = nullptr;
    for (const auto& run : runs) {
        total += run.size();
        if (!longest || run.size() > longest->size()) longest = &run;
    }
    FillableVector<Item> merged(total);
    if (total == 0) return merged;
    const std::size_t pieces =
        std::clamp<std::size_t>(std::size_t(std::max(threads, 1)), 1, longest->size());
    // cuts[piece][run]: where the run's items of that piece begin.
    std::vector<std::vector<std::size_t>> cuts(pieces + 1, std::vector<std::size_t>(runs.size()));
    for (std::size_t r = 0; r < runs.size(); ++r) cuts[pieces][r] = runs[r].size();
    for (std::size_t piece = 1; piece < pieces; ++piece) {
        const std::uint64_t cut_key = key_of((*longest)[longest->size() * piece / pieces]);
        for (std::size_t r = 0; r < runs.size(); ++r) {
            cuts[piece][r] =
                std::size_t(std::ranges::lower_bound(
                                runs[r], cut_key, {},
                                [&](const Item& item) { return std::uint64_t(key_of(item)); }) -
                            runs[r].begin());
        }
    }
    parallel_for(pieces, int(pieces), [&](std::size_t, std::size_t piece) {
        std::size_t out = 0;
        for (std::size_t r = 0; r < runs.size(); ++r) out += cuts[piece][r];
        std::vector<std::size_t> next = cuts[piece];
        const std::vector<std::size_t>& end = cuts[piece + 1];
        while (true) {
            // The run whose next item has the smallest key (the first such run on a tie).
            std::size_t smallest = runs.size();
            for (std::size_t r = 0; r < runs.size(); ++r) {
                if (next[r] < end[r] &&
                    (smallest == runs.size() ||
                     key_of(runs[r][next[r]]) < key_of(runs[smallest][next[smallest]])))
                    smallest = r;
            }
            if (smallest == runs.size()) break;
            merged[out++] = runs[smallest][next[smallest]++];
        }
    });
    return merged;
}

// Lists items in `parts` parts and returns them all sorted by key_of: each part is listed
// (list_part(part) returns a FillableVector<Item>) and radix-sorted on a thread of its own,
// then the sorted parts are merged on all threads.
template <typename Item, typename ListPart, typename KeyOf>
FillableVector<Item> sort_listed_in_parts(std::size_t parts, int threads, ListPart&& list_part,
                                          KeyOf&& key_of) {
    std::vector<FillableVector<Item>> runs(std::max<std::size_t>(parts, 1));
    parallel_for(runs.size(), threads, [&](std::size_t, std::size_t part) {
        // Sorted apart and moved in: the runs' vector objects share cache lines.
        FillableVector<Item> run = list_part(part);
        radix_sort(run, key_of);
        runs[part] = std::move(run);
    });
    if (runs.size() == 1) return std::move(runs[0]);
    return merge_sorted_runs(runs, threads, key_of);
}

}  // namespace wdl::util
