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

TEST_CASE("sorted runs merge on threads into the order of a stable sort", "[util][sort]") {
    for (int threads : {1, 2, 3, 5}) {
        for (std::size_t run_count : {1, 2, 3, 4}) {
            std::vector<wdl::util::FillableVector<Item>> runs(run_count);
            std::vector<Item> all;
            for (std::size_t r = 0; r < run_count; ++r) {
                // Runs of unequal lengths, one of them empty, with keys that repeat across runs.
                std::size_t length = r == 1 ? 0 : 3000 * (r + 1) + 17 * std::size_t(threads);
                auto items = stably_sorted(random_items(length, 5000, 7 * r + 1));
                for (Item& item : items) item.origin = std::uint32_t(all.size() + item.origin);
                runs[r].assign(items.begin(), items.end());
                all.insert(all.end(), items.begin(), items.end());
            }
            INFO(threads << " threads, " << run_count << " runs");
            auto merged = wdl::util::merge_sorted_runs(runs, threads, key_of);
            // Equal keys keep the order of their runs, which `all` lists one after another.
            auto expected = stably_sorted(all);
            CHECK(std::vector<Item>(merged.begin(), merged.end()) == expected);
        }
    }
    std::vector<wdl::util::FillableVector<Item>> empty(3);
    CHECK(wdl::util::merge_sorted_runs(empty, 2, key_of).empty());
}

TEST_CASE("items listed in parts come back sorted as one list", "[util][sort]") {
    auto items = random_items(40000, std::uint64_t{1} << 40, 5);
    for (std::size_t parts : {1, 2, 3}) {
        for (int threads : {1, 2, 4}) {
            INFO(parts << " parts on " << threads << " threads");
            auto sorted = wdl::util::sort_listed_in_parts<Item>(
                parts, threads,
                [&](std::size_t part) {
                    wdl::util::FillableVector<Item> listed;
                    for (std::size_t i = part; i < items.size(); i += parts)
                        listed.push_back(items[i]);
                    return listed;
                },
                key_of);
            std::vector<std::uint64_t> keys, expected;
            for (const Item& item : sorted) keys.push_back(item.key);
            for (const Item& item : stably_sorted(items)) expected.push_back(item.key);
            CHECK(keys == expected);
        }
    }
}
