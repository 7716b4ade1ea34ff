#include <algorithm>
#include <catch2/catch.hpp>

#include "table_helpers.hpp"
#include "wdl/tablebase/position.hpp"
#include "wdl/tablebase/table_index.hpp"
#include "wdl/util/error.hpp"

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

TEST_CASE("the same tables with 1 and 2 threads", "[tablebase][generator]") {
    for (Metric metric : {Metric::DTM, Metric::DTC}) {
        MemoryTables one(metric), two(metric);
        one.set_threads(1);
        two.set_threads(2);
        for (const char* name : {"KQK", "KPK"}) {
            const Table& a = one.get(material(name));
            const Table& b = two.get(material(name));
            CHECK(a.codes(Color::White) == b.codes(Color::White));
            CHECK(a.codes(Color::Black) == b.codes(Color::Black));
        }
    }
}

TEST_CASE("material names and the order of generation", "[tablebase][material]") {
    CHECK(material("kqkr").name() == "KQKR");
    CHECK_FALSE(Material::parse("KQ"));
    CHECK_FALSE(Material::parse("KQRKR"));  // 5 men
    CHECK_FALSE(Material::parse("QKK"));
    CHECK(material("KRKQ").canonical().name() == "KQKR");
    auto endgames = all_endgames(4);
    CHECK(endgames.size() == 35);  // 5 of 3 men, 30 of 4
    // Every table comes after the tables it converts into.
    for (std::size_t i = 0; i < endgames.size(); ++i)
        for (const Material& successor : successor_endgames(endgames[i])) {
            if (successor == endgames[i]) continue;
            auto at = std::find(endgames.begin(), endgames.end(), successor);
            CHECK(at - endgames.begin() < std::ptrdiff_t(i));
        }
}

// KBKP's pawn can take the bishop and promote at once: the generator of KBKP (which reads only
// the tables listed here) then met KQK and ended the process with std::terminate.
TEST_CASE("a pawn that takes a piece and promotes converts into the tables of 3 men",
          "[tablebase][material]") {
    auto converts_into = [](const char* endgame, const char* successor) {
        auto successors = successor_endgames(material(endgame));
        return std::find(successors.begin(), successors.end(), material(successor)) !=
               successors.end();
    };
    for (const char* endgame : {"KQKP", "KRKP", "KBKP", "KNKP"}) {
        CAPTURE(endgame);
        for (const char* successor : {"KQK", "KRK", "KBK", "KNK"})
            CHECK(converts_into(endgame, successor));
    }
    // The other conversions are still there: en passant (KPKP into KPK), plain promotions.
    CHECK(converts_into("KPKP", "KPK"));
    CHECK(converts_into("KPKP", "KQKP"));
    CHECK(converts_into("KPPK", "KNPK"));
    CHECK_FALSE(converts_into("KPKP", "KQK"));  // a pawn never stands on a last rank
}

namespace {

// A table that has no value for any position: a table that cannot serve.
Table table_without_values(const Material& endgame, Metric metric) {
    std::uint64_t size = TableIndex(endgame).size();
    return Table(endgame, metric, std::vector<std::uint8_t>(size, code::none),
                 std::vector<std::uint8_t>(size, code::none));
}

// The message of the wdl::Error a generation throws ("" if it throws none).
std::string error_of(const Material& endgame, const SubtableLookup& lookup, int threads) {
    try {
        generate_table(endgame, Metric::DTC, lookup, threads);
    } catch (const wdl::Error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

// An exception inside the generator's OpenMP workers ended the process (std::terminate): it is
// carried out of the parallel region and thrown once, as a wdl::Error naming the table.
TEST_CASE("a subtable that cannot serve is one error naming the table, at 1 and 2 threads",
          "[tablebase][generator]") {
    MemoryTables tables(Metric::DTC);
    for (const char* name : {"KRK", "KBK", "KNK"}) tables.get(material(name));
    Table empty_kqk = table_without_values(material("KQK"), Metric::DTC);
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        auto lookup = [&](const Material& m) {
            return m == material("KQK") ? &empty_kqk : tables.find(m);
        };
        CHECK_THAT(error_of(material("KPK"), lookup, threads),
                   Catch::StartsWith("cannot generate the DTC table of KPK: ") &&
                       Catch::Contains("the DTC table of KQK has no value for"));
        // A lookup that answers with another table is refused before any work.
        auto wrong = [&](const Material& m) {
            return m == material("KQK") ? tables.find(material("KRK")) : tables.find(m);
        };
        CHECK(error_of(material("KPK"), wrong, threads) ==
              "the table given for KQK DTC is the DTC table of KRK");
    }
}
