#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "wdl/util/radix_sort.hpp"

namespace {

struct Item {
    std::uint64_t key;
    std::uint32_t origin;  // where the item was before sorting: shows stability
    bool operator==(const Item&) const = default;
};

std::uint64_t key_of(const Item& item) { return item.key; }

// Keys from a small generator: many repeats when `range` is small, all bits when it is 0.
std::vector<Item> random_items(std::size_t count, std::uint64_t range, std::uint64_t seed) {
    std::vector<Item> items;
    std::uint64_t state = seed;
    for (std::size_t i = 0; i < count; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::uint64_t key = state ^ (state >> 29);
        items.push_back({range ? key % range : key, std::uint32_t(i)});
    }
    return items;
}

std::vector<Item> stably_sorted(std::vector<Item> items) {
    std::ranges::stable_sort(items, {}, key_of);
    return items;
}

}  // namespace

TEST_CASE("radix sort orders by key and keeps the order of equal keys", "[util][sort]") {
    for (std::uint64_t range : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{7},
                                std::uint64_t{1} << 20, std::uint64_t{1} << 50}) {
        for (std::size_t count : {0, 1, 2, 1000, 50000}) {
            INFO("range " << range << ", " << count << " items");
            auto items = random_items(count, range, 99 + count);
            auto expected = stably_sorted(items);
            wdl::util::radix_sort(items, key_of);
            CHECK(items == expected);
        }
    }
    // A key whose only varying bits are the top ones takes the last digit's pass.
    std::vector<Item> top{{std::uint64_t{1} << 63, 0}, {0, 1}, {std::uint64_t{3} << 62, 2}};
    wdl::util::radix_sort(top, key_of);
    CHECK(top ==
          std::vector<Item>{{0, 1}, {std::uint64_t{1} << 63, 0}, {std::uint64_t{3} << 62, 2}});
}

namespace {

// Reads every piece of the runs in turn, checking that each begins where the pieces before
// it ended.
template <typename Runs>
std::vector<Item> read_in_pieces(const Runs& runs) {
    std::vector<Item> items;
    for (std::size_t piece = 0; piece < runs.pieces(); ++piece) {
        CHECK(runs.piece_begin(piece) == items.size());
        runs.for_each_in_piece(piece, [&](const Item& item) { items.push_back(item); });
    }
    CHECK(items.size() == runs.size());
    return items;
}

}  // namespace

TEST_CASE("runs sorted in parts read back in pieces as one stably sorted list", "[util][sort]") {
    for (std::size_t parts : {1, 2, 3, 4}) {
        // Parts of unequal lengths, one of them empty, with keys that repeat across parts.
        std::vector<std::vector<Item>> listed(parts);
        std::vector<Item> all;
        for (std::size_t part = 0; part < parts; ++part) {
            std::size_t length = part == 1 ? 0 : 3000 * (part + 1) + 17;
            listed[part] = random_items(length, 5000, 7 * part + 1);
            for (Item& item : listed[part]) item.origin = std::uint32_t(all.size() + item.origin);
            all.insert(all.end(), listed[part].begin(), listed[part].end());
        }
        // Equal keys come in the order of their parts, which `all` lists one after another.
        const auto expected = stably_sorted(all);
        for (int threads : {1, 2, 3}) {
            auto runs = wdl::util::sort_in_runs<Item>(
                parts, threads,
                [&](std::size_t part) {
                    return wdl::util::FillableVector<Item>(listed[part].begin(),
                                                           listed[part].end());
                },
                key_of);
            for (std::size_t pieces : {1, 2, 3, 5}) {
                INFO(parts << " parts on " << threads << " threads, " << pieces << " pieces");
                runs.cut(pieces);
                CHECK(runs.pieces() <= pieces);
                CHECK(read_in_pieces(runs) == expected);
            }
        }
    }
}

TEST_CASE("sorted runs merge into one list on threads", "[util][sort]") {
    auto items = random_items(30000, 20000, 3);
    for (std::size_t parts : {1, 2, 3}) {
        for (int threads : {1, 2, 4}) {
            INFO(parts << " parts on " << threads << " threads");
            auto merged =
                wdl::util::sort_in_runs<Item>(
                    parts, threads,
                    [&](std::size_t part) {
                        // Consecutive slices: equal keys keep their order overall.
                        auto first = items.begin() + std::ptrdiff_t(items.size() * part / parts);
                        auto last =
                            items.begin() + std::ptrdiff_t(items.size() * (part + 1) / parts);
                        return wdl::util::FillableVector<Item>(first, last);
                    },
                    key_of)
                    .merged(threads);
            CHECK(std::vector<Item>(merged.begin(), merged.end()) == stably_sorted(items));
        }
    }
}

TEST_CASE("runs of no items read back as no items", "[util][sort]") {
    auto runs = wdl::util::sort_in_runs<Item>(
        3, 2, [](std::size_t) { return wdl::util::FillableVector<Item>(); }, key_of);
    runs.cut(4);
    CHECK(runs.size() == 0);
    CHECK(read_in_pieces(runs).empty());
}
