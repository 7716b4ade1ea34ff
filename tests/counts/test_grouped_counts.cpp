#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "wdl/counts/grouped_counts.hpp"

using wdl::counts::GroupBy;
using wdl::counts::GroupedCounts;
using wdl::counts::Grouping;
using wdl::counts::PositionCounts;

namespace {

using Cells = std::map<std::pair<std::uint64_t, int>, std::uint64_t>;

Cells cells_of(const GroupedCounts& counts) {
    Cells cells;
    counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        CHECK(cells.emplace(std::pair(key, group), count).second);  // each cell once
    });
    return cells;
}

// A reference of the same adds, in a plain map.
struct Example {
    GroupedCounts counts;
    Cells expected;

    explicit Example(int groups) : counts(Grouping{GroupBy::Game, groups}) {}
    void add(std::uint64_t key, int group, std::uint64_t count) {
        counts.add(key, group, count);
        expected[{key, group}] += count;
    }
};

}  // namespace

TEST_CASE("grouped counts hold each key's count in each group", "[counts][grouped]") {
    // Fewer groups than a block, a block exactly, and several blocks with a partial last one.
    for (int groups : {1, 5, 64, 200}) {
        INFO(groups << " groups");
        Example example(groups);
        for (std::uint64_t key = 0; key < 3000; ++key)
            for (int group = int(key % 7) % groups; group < groups; group += 13)
                example.add(key << 20, group, key % 11 + 1);
        example.add(5 << 20, groups - 1, 3);  // a second add to a cell
        CHECK(cells_of(example.counts) == example.expected);
        std::uint64_t total = 0;
        for (const auto& [cell, count] : example.expected) total += count;
        CHECK(example.counts.total_count() == total);
        auto plain = example.counts.plain_counts();
        CHECK(plain.distinct_keys() == 3000);
        std::uint64_t key_five = 0;
        for (const auto& [cell, count] : example.expected)
            if (cell.first == 5 << 20) key_five += count;
        CHECK(plain.count_of(5 << 20) == key_five);
    }
}

TEST_CASE("a cell's count goes past 8 and 16 bits without loss", "[counts][grouped]") {
    Example example(64);
    std::vector<std::uint64_t> game(70000, 42);  // one key 70000 times in one game
    example.counts.begin_game(9);
    std::vector<std::uint64_t> read;
    for (std::uint64_t key : game) {
        read.push_back(key);
        example.counts.add_to_game(read);
    }
    example.counts.commit_game(read);
    example.expected[{42, 9}] += 70000;
    example.add(42, 9, 65536 * 3);  // a multiple of 2^16 on its own
    example.add(43, 63, 65535);     // just below
    example.add(43, 63, 1);         // exactly 2^16: the cell itself is 0
    example.add(44, 0, std::uint64_t{1} << 40);
    example.add(45, 1, 255);  // a cell's limit
    example.add(45, 1, 1);    // exactly 2^8: the cell itself is 0
    example.add(46, 2, 256);  // a key whose only count is carried
    CHECK(cells_of(example.counts) == example.expected);
    CHECK(example.counts.total_count() ==
          70000 + 65536 * 3 + 65536 + (std::uint64_t{1} << 40) + 256 + 256);
    CHECK(example.counts.distinct_keys() == 5);
}

TEST_CASE("a game's keys all go into its group, once it is committed", "[counts][grouped]") {
    GroupedCounts counts(Grouping{GroupBy::Test, 100});
    auto add_game = [&](int group, bool commit) {
        counts.begin_game(group);
        std::vector<std::uint64_t> read;
        for (std::uint64_t key : {7, 8, 7, 9}) {
            read.push_back(key);
            counts.add_to_game(read);
        }
        if (commit) counts.commit_game(read);
    };
    add_game(77, true);
    add_game(50, false);  // a broken game: begun, never committed
    add_game(3, true);
    add_game(51, false);
    CHECK(cells_of(counts) ==
          Cells{{{7, 3}, 2}, {{8, 3}, 1}, {{9, 3}, 1}, {{7, 77}, 2}, {{8, 77}, 1}, {{9, 77}, 1}});
    CHECK(counts.distinct_keys() == 3);
    CHECK_THROWS_AS(counts.begin_game(100), std::invalid_argument);
    CHECK_THROWS_AS(counts.add(7, -1), std::invalid_argument);
    CHECK_THROWS_AS(GroupedCounts(Grouping{GroupBy::Game, 0}), std::invalid_argument);
}

TEST_CASE("merged grouped counts are the counts of both", "[counts][grouped]") {
    for (int groups : {3, 130}) {
        Example a(groups), b(groups);
        for (std::uint64_t key = 0; key < 500; ++key) {
            a.add(key, int(key % std::uint64_t(groups)), 60000);
            b.add(key + 250, int((key * 7) % std::uint64_t(groups)), 10000 + key);
        }
        a.counts.merge(b.counts);
        Cells expected = a.expected;
        for (const auto& [cell, count] : b.expected) expected[cell] += count;
        CHECK(cells_of(a.counts) == expected);
    }
    GroupedCounts four(Grouping{GroupBy::Game, 4}), five(Grouping{GroupBy::Game, 5});
    CHECK_THROWS_AS(four.merge(five), std::invalid_argument);
}

TEST_CASE("merging adds blocks of small counts at once, and their carries one by one",
          "[counts][grouped]") {
    for (int groups : {64, 70}) {
        Example a(groups), b(groups);
        for (std::uint64_t key = 0; key < 2000; ++key) {
            for (int group = 0; group < groups; group += 3) {
                a.add(key, group, key % 3);  // zero counts too
                b.add(key, group, (key + std::uint64_t(group)) % 5);
            }
        }
        a.add(7, 0, 200);
        b.add(7, 0, 100);  // 300: the sum carries
        b.add(8, 1, 512);  // a carry only in the table merged
        a.counts.merge(b.counts);
        Cells expected = a.expected;
        for (const auto& [cell, count] : b.expected) expected[cell] += count;
        std::erase_if(expected, [](const auto& cell) { return cell.second == 0; });
        CHECK(cells_of(a.counts) == expected);
        CHECK(a.counts.distinct_keys() == 2000);
    }
}

TEST_CASE("a merge on threads adds the same counts as on one", "[counts][grouped][threads]") {
    // Tables large enough to be merged in many pieces; most keys in both, some in one only, and
    // sums that carry: the cases the threads hand on to the serial pass.
    for (int groups : {64, 100}) {
        Example a(groups), b(groups);
        for (std::uint64_t key = 0; key < 60000; ++key) {
            const int group = int((key * 13) % std::uint64_t(groups));
            if (key % 10 != 0) a.add(key, group, 1 + key % 200);
            if (key % 10 != 1) b.add(key, (group + 1) % groups, 1 + key % 3);
            if (key % 97 == 0) b.add(key, group, 250);  // carries when added to a's count
        }
        Cells expected = a.expected;
        for (const auto& [cell, count] : b.expected) expected[cell] += count;
        for (int threads : {1, 2, 3}) {
            GroupedCounts merged(Grouping{GroupBy::Game, groups});
            merged.merge(a.counts);
            merged.merge(b.counts, threads);
            CHECK(cells_of(merged) == expected);
            CHECK(merged.distinct_keys() == 60000);
        }
    }
}

TEST_CASE("keys in key order list their counts by group", "[counts][grouped]") {
    for (int groups : {64, 150}) {
        INFO(groups << " groups");
        Example example(groups);
        for (std::uint64_t key : {30, 10, 20})
            for (int group : {0, 5, 63, 64 % groups, 70 % groups, groups - 1})
                example.add(key, group, key + std::uint64_t(group));
        example.add(40, 5, 0);          // a key without counts: listed, with nothing to call
        example.add(20, 1, 65536 * 2);  // a count held by carries alone
        example.add(50, 2, 3);
        auto order = example.counts.in_key_order();
        REQUIRE(order.keys() == 5);
        std::vector<std::uint64_t> keys;
        Cells seen;
        for (std::size_t number = 0; number < order.keys(); ++number) {
            keys.push_back(order.key(number));
            int previous = -1;
            order.for_each_of_key(number, [&](int group, std::uint64_t count) {
                CHECK(group > previous);
                previous = group;
                seen[{order.key(number), group}] += count;
            });
            std::uint64_t filled = 0;
            const std::uint8_t* cells = nullptr;
            // Keys 10 and 30 span two blocks with 150 groups; 20 has a carry; 40 and 50 do not.
            bool single = order.single_block(number, filled, cells);
            CHECK(single == (order.key(number) >= 40 || (groups == 64 && order.key(number) != 20)));
            if (single && order.key(number) == 50) CHECK(filled == 4);
        }
        CHECK(keys == std::vector<std::uint64_t>{10, 20, 30, 40, 50});
        Cells expected = example.expected;
        std::erase_if(expected, [](const auto& cell) { return cell.second == 0; });
        CHECK(seen == expected);
    }
}

TEST_CASE("position counts are plain or grouped, and merge only with their kind",
          "[counts][grouped]") {
    PositionCounts plain, grouped(Grouping{GroupBy::Game, 4});
    plain.add(11, 3, 5);  // the group of a plain count is ignored
    grouped.add(11, 3, 5);
    grouped.add(11, 1, 2);
    grouped.add(12, 0, 1);
    CHECK(plain.plain.count_of(11) == 5);
    CHECK(plain.distinct_keys() == 1);
    CHECK(grouped.plain.distinct_keys() == 0);
    CHECK(grouped.distinct_keys() == 2);
    CHECK(grouped.total_count() == 8);
    std::map<std::pair<std::uint64_t, int>, std::uint64_t> seen;
    plain.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        seen[{key, group}] = count;
    });
    CHECK(seen == std::map<std::pair<std::uint64_t, int>, std::uint64_t>{{{11, 0}, 5}});
    CHECK_THROWS_AS(plain.merge(grouped), std::invalid_argument);
    PositionCounts other(Grouping{GroupBy::Game, 4});
    other.add(12, 0, 4);
    grouped.merge(other);
    CHECK(grouped.total_count() == 12);
}
