#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <utility>

#include "wdl/counts/count_map.hpp"

using wdl::counts::CountMap;

TEST_CASE("counts add up key by key through growth", "[counts][map]") {
    CountMap counts;
    for (std::uint64_t round = 0; round < 3; ++round)
        for (std::uint64_t key = 0; key < 20000; ++key) counts.add(key * 977, key % 5 + 1);
    CHECK(counts.distinct_keys() == 20000);
    CHECK(counts.count_of(977 * 123) == 3 * (123 % 5 + 1));
    CHECK_FALSE(counts.count_of(5).has_value());
    CHECK(counts.total_count() == 3 * 20000 * 3);
}

TEST_CASE("emplace keeps a key's count and sets a new key's", "[counts][map]") {
    CountMap numbers;
    for (std::uint64_t key = 0; key < 10000; ++key) CHECK(numbers.emplace(key * 31, key) == key);
    // Known keys keep their number, whatever is offered.
    for (std::uint64_t key = 0; key < 10000; ++key) CHECK(numbers.emplace(key * 31, 7) == key);
    CHECK(numbers.distinct_keys() == 10000);
}

TEST_CASE("listed in parts, a map's pairs are each listed once, as made", "[counts][map]") {
    CountMap counts;
    for (std::uint64_t key = 0; key < 5000; ++key) counts.add(key * 104729, key % 7 + 1);
    for (std::size_t parts : {1, 2, 3, 7}) {
        INFO(parts);
        std::map<std::uint64_t, std::uint64_t> listed;
        for (std::size_t part = 0; part < parts; ++part) {
            auto items = counts.list_part<std::pair<std::uint64_t, std::uint64_t>>(
                part, parts, [](std::uint64_t key, std::uint64_t count) {
                    return std::pair{key, 10 * count};
                });
            for (const auto& [key, made] : items) CHECK(listed.emplace(key, made).second);
        }
        REQUIRE(listed.size() == counts.distinct_keys());
        for (const auto& [key, made] : listed) CHECK(made == 10 * *counts.count_of(key));
    }
}

TEST_CASE("a merge on threads adds the same counts as one on one thread", "[counts][map]") {
    // The maps share some keys; each also has keys of its own, which the merge on threads
    // inserts after its parallel pass, and the smaller map grows to the other's size first.
    CountMap theirs;
    for (std::uint64_t key = 0; key < 30000; ++key) theirs.add(key * 7919, key % 9 + 1);
    for (int threads : {1, 2, 3}) {
        CountMap mine;
        for (std::uint64_t key = 15000; key < 20000; ++key) mine.add(key * 7919, 100);
        for (std::uint64_t key = 0; key < 3000; ++key) mine.add(key * 7919 + 1, 1);
        mine.merge(theirs, threads);
        INFO(threads << " threads");
        CHECK(mine.distinct_keys() == 33000);
        CHECK(mine.total_count() == theirs.total_count() + 5000 * 100 + 3000);
        bool all_match = true;
        for (std::uint64_t key = 0; key < 30000; ++key) {
            std::uint64_t expected = key % 9 + 1 + (key >= 15000 && key < 20000 ? 100 : 0);
            all_match = all_match && mine.count_of(key * 7919) == expected;
        }
        CHECK(all_match);
        CHECK(mine.count_of(2999 * 7919 + 1) == 1);
    }
}
