#include <catch2/catch.hpp>
#include <cstdint>

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
