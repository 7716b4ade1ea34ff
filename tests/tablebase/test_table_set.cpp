// TableSet's first runs: tables generated on demand into an empty folder, after the tables of
// their subgames, with OpenMP at several threads and lookups from several threads at once.
// They hung once (a lock held across the generator's parallel region, whose workers looked
// tables up): the CTest TIMEOUT of this executable turns a hang into a failure.
#include <catch2/catch.hpp>
#include <sstream>
#include <thread>

#include "program_runner.hpp"
#include "table_helpers.hpp"
#include "wdl/tablebase/table_file.hpp"
#include "wdl/tablebase/table_set.hpp"

using namespace wdl::tablebase;
using wdl::tablebase::testing::material;
namespace fs = std::filesystem;

namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
    return count;
}

}  // namespace

TEST_CASE("a first lookup generates the table and its subgames' tables at 2 and 3 threads",
          "[tablebase][table_set]") {
    // What each run must equal: KPK generated in memory on one thread.
    testing::MemoryTables memory(Metric::DTC);
    memory.set_threads(1);
    const Table& kpk_in_memory = memory.get(material("KPK"));
    for (int threads : {2, 3}) {
        CAPTURE(threads);
        fs::path directory =
            wdl::testing::fresh_directory("table-set-first-" + std::to_string(threads));
        TableSet tables(directory, Metric::DTC);
        std::ostringstream log;
        tables.generate_on_demand(threads, log);
        // KNKN converts into KNK, and KPK promotes into KQK, KRK, KBK and KNK: those are
        // generated first, and the generation of KNKN and KPK reads them.
        for (const char* name : {"KNKN", "KPK"}) {
            CAPTURE(name);
            const Table* table = tables.find(material(name));
            REQUIRE(table != nullptr);
            CHECK(table->material() == material(name));
        }
        for (const auto& problem : tables.problems()) FAIL_CHECK(problem);
        for (const char* name : {"KNK", "KQK", "KRK", "KBK"}) {
            CAPTURE(name);
            CHECK(fs::exists(directory / table_file_name(material(name), Metric::DTC)));
        }
        INFO(log.str());
        CHECK(occurrences(log.str(), "Generating the DTC table of KNKN (met in the games)") == 1);
        CHECK(occurrences(log.str(), "Generated KNK DTC") == 1);
        CHECK(occurrences(log.str(), "Generated KNKN DTC") == 1);
        for (auto side : {wdl::chess::Color::White, wdl::chess::Color::Black})
            CHECK(tables.find(material("KPK"))->codes(side) == kpk_in_memory.codes(side));
    }
}

TEST_CASE("threads that meet the same missing tables at once get each generated once",
          "[tablebase][table_set]") {
    fs::path directory = wdl::testing::fresh_directory("table-set-concurrent");
    TableSet tables(directory, Metric::DTC);
    std::ostringstream log;
    tables.generate_on_demand(2, log);
    // Four threads, two of them after KPK, whose generation needs KQK and KRK, which the
    // other two look up themselves.
    std::vector<const char*> names{"KPK", "KQK", "KPK", "KRK"};
    std::vector<const Table*> found(names.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t i = 0; i < names.size(); ++i)
            threads.emplace_back([&, i] { found[i] = tables.find(material(names[i])); });
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        CAPTURE(names[i]);
        REQUIRE(found[i] != nullptr);
        CHECK(found[i]->material() == material(names[i]));
    }
    CHECK(found[0] == found[2]);
    for (const auto& problem : tables.problems()) FAIL_CHECK(problem);
    INFO(log.str());
    for (const char* name : {"KPK", "KQK", "KRK", "KBK", "KNK"}) {
        CAPTURE(name);
        CHECK(occurrences(log.str(), std::string("Generated ") + name + " DTC") == 1);
    }
    CHECK(occurrences(log.str(), "Generating the DTC table of KPK") == 1);
}
