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

TEST_CASE("a cell's count goes past 16 bits without loss", "[counts][grouped]") {
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
    CHECK(cells_of(example.counts) == example.expected);
    CHECK(example.counts.total_count() == 70000 + 65536 * 3 + 65536 + (std::uint64_t{1} << 40));
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

TEST_CASE("ordered counts number the keys in the order asked for, group by group",
          "[counts][grouped]") {
    Example example(150);
    for (std::uint64_t key : {30, 10, 20})
        for (int group : {149, 0, 70, 64, 63}) example.add(key, group, key + std::uint64_t(group));
    example.add(40, 5, 0);           // a key without counts gets no number
    example.add(20, 66, 65536 * 2);  // a count held by carries alone
    // Descending keys, to tell the order given from the order of the keys.
    auto ordered = example.counts.ordered([](std::uint64_t key) { return 1000 - key; });
    CHECK(ordered.keys == std::vector<std::uint64_t>{30, 20, 10});
    for (int group = 0; group < 150; ++group) {
        INFO("group " << group);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> seen, expected;
        ordered.for_each_in_group(group, [&](std::uint64_t number, std::uint64_t count) {
            seen.emplace_back(number, count);
        });
        for (std::uint64_t number = 0; number < 3; ++number) {
            auto cell = example.expected.find({ordered.keys[number], group});
            if (cell != example.expected.end() && cell->second != 0)
                expected.emplace_back(number, cell->second);
        }
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
