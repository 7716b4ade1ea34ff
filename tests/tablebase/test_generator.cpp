#include <catch2/catch.hpp>

#include "table_helpers.hpp"
#include "wdl/tablebase/position.hpp"

using namespace wdl::tablebase;
using namespace wdl::tablebase::testing;
using wdl::chess::Color;

TEST_CASE("longest mates of the 3-man endgames", "[tablebase][generator]") {
    MemoryTables tables(Metric::DTM);
    CHECK(max_depth(tables.get(material("KQK")), Color::White, Outcome::Win) == 10);
    CHECK(max_depth(tables.get(material("KRK")), Color::White, Outcome::Win) == 16);
    CHECK(max_depth(tables.get(material("KPK")), Color::White, Outcome::Win) == 28);
    CHECK(max_depth(tables.get(material("KBK")), Color::White, Outcome::Win) == -1);
    CHECK(max_depth(tables.get(material("KNK")), Color::White, Outcome::Win) == -1);
}
