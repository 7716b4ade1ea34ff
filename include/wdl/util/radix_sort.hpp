#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
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

// How many parts to list and sort `items` items in on `threads` threads: one below 65536 items,
// where merging the parts would cost more than the threads save.
inline std::size_t sorting_parts(std::size_t items, int threads) {
    return items >= (std::size_t{1} << 16) ? std::size_t(std::max(threads, 1)) : 1;
}

// Items listed in parts, each part sorted on a thread of its own (a run), and read back in the
// order of one sorted list: cut into pieces at the same keys in every run, so that threads can
// each take a piece and merge its runs' items as they go. Items of equal keys come in the
// order of their runs.
template <typename Item, typename KeyOf>
class SortedRuns {
  public:
    // list_part(part) returns the items of one of `parts` parts as a FillableVector<Item>.
    template <typename ListPart>
    SortedRuns(std::size_t parts, int threads, ListPart&& list_part, KeyOf key_of)
        : runs_(std::max<std::size_t>(parts, 1)), key_of_(std::move(key_of)) {
        parallel_for(runs_.size(), threads, [&](std::size_t, std::size_t part) {
            // Sorted apart and moved in: the runs' vector objects share cache lines.
            FillableVector<Item> run = list_part(part);
            radix_sort(run, key_of_);
            runs_[part] = std::move(run);
        });
        for (const auto& run : runs_) size_ += run.size();
        cut(1);
    }

    std::size_t size() const { return size_; }
    std::size_t pieces() const { return cuts_.size() - 1; }

    // Cuts the items into up to `pieces` pieces of about equal size, at evenly spaced keys of
    // the longest run (fewer pieces when there are fewer items).
    void cut(std::size_t pieces) {
        const FillableVector<Item>* longest = &runs_[0];
        for (const auto& run : runs_)
            if (run.size() > longest->size()) longest = &run;
        pieces = std::clamp<std::size_t>(pieces, 1, std::max<std::size_t>(longest->size(), 1));
        // cuts_[piece][run]: where the run's items of that piece begin.
        cuts_.assign(pieces + 1, std::vector<std::size_t>(runs_.size()));
        for (std::size_t r = 0; r < runs_.size(); ++r) cuts_[pieces][r] = runs_[r].size();
        for (std::size_t piece = 1; piece < pieces; ++piece) {
            const std::uint64_t cut_key = key_of_((*longest)[longest->size() * piece / pieces]);
            for (std::size_t r = 0; r < runs_.size(); ++r) {
                cuts_[piece][r] =
                    std::size_t(std::ranges::lower_bound(runs_[r], cut_key, {},
                                                         [&](const Item& item) {
                                                             return std::uint64_t(key_of_(item));
                                                         }) -
                                runs_[r].begin());
            }
        }
    }

    // Where the piece begins in the order of all items.
    std::size_t piece_begin(std::size_t piece) const {
        std::size_t begin = 0;
        for (std::size_t cut : cuts_[piece]) begin += cut;
        return begin;
    }

    // Visits the items of a piece in order.
    template <typename Visit>
    void for_each_in_piece(std::size_t piece, Visit&& visit) const {
        std::vector<std::size_t> next = cuts_[piece];
        const std::vector<std::size_t>& end = cuts_[piece + 1];
        if (runs_.size() == 1) {
            for (std::size_t i = next[0]; i < end[0]; ++i) visit(runs_[0][i]);
            return;
        }
        if (runs_.size() == 2) {
            // Two runs (a scan on two threads): a plain two-way merge, several times faster.
            const Item *a = runs_[0].data() + next[0], *a_end = runs_[0].data() + end[0];
            const Item *b = runs_[1].data() + next[1], *b_end = runs_[1].data() + end[1];
            while (a != a_end && b != b_end) visit(key_of_(*b) < key_of_(*a) ? *b++ : *a++);
            for (; a != a_end; ++a) visit(*a);
            for (; b != b_end; ++b) visit(*b);
            return;
        }
        while (true) {
            // The run whose next item has the smallest key (the first such run on a tie).
            std::size_t smallest = runs_.size();
            for (std::size_t r = 0; r < runs_.size(); ++r) {
                if (next[r] < end[r] &&
                    (smallest == runs_.size() ||
                     key_of_(runs_[r][next[r]]) < key_of_(runs_[smallest][next[smallest]])))
                    smallest = r;
            }
            if (smallest == runs_.size()) return;
            visit(runs_[smallest][next[smallest]++]);
        }
    }

    // All items as one sorted list (the runs are used up): copied into place on up to
    // `threads` threads, or the one run itself.
    FillableVector<Item> merged(int threads) && {
        if (runs_.size() == 1) return std::move(runs_[0]);
        FillableVector<Item> items(size_);
        cut(std::size_t(std::max(threads, 1)));
        parallel_for(pieces(), threads, [&](std::size_t, std::size_t piece) {
            std::size_t next = piece_begin(piece);
            for_each_in_piece(piece, [&](const Item& item) { items[next++] = item; });
        });
        return items;
    }

  private:
    std::vector<FillableVector<Item>> runs_;
    KeyOf key_of_;
    std::size_t size_ = 0;
    std::vector<std::vector<std::size_t>> cuts_;
};

// Lists items in `parts` parts and sorts each on a thread of its own: see SortedRuns.
template <typename Item, typename ListPart, typename KeyOf>
SortedRuns<Item, std::decay_t<KeyOf>> sort_in_runs(std::size_t parts, int threads,
                                                   ListPart&& list_part, KeyOf&& key_of) {
    return SortedRuns<Item, std::decay_t<KeyOf>>(parts, threads, list_part,
                                                 std::forward<KeyOf>(key_of));
}

}  // namespace wdl::util
