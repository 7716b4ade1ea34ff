#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "program_runner.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/move_values.hpp"
#include "wdl/tablebase/table_file.hpp"
#include "wdl/tablebase/table_set.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::tablebase;
namespace fs = std::filesystem;

namespace {

// 3-man tables generated once into a scratch directory of the build tree.
TableSet& three_man_tables(Metric metric) {
    static std::map<Metric, std::unique_ptr<TableSet>> sets;
    auto& set = sets[metric];
    if (!set) {
        fs::path directory =
            wdl::testing::scratch_directory() / (std::string("tables-") + metric_name(metric));
        set = std::make_unique<TableSet>(directory, metric);
        std::ostringstream log;
        std::vector<Material> materials;
        for (const char* name : {"KQK", "KRK", "KBK", "KNK", "KPK"})
            materials.push_back(*Material::parse(name));
        set->generate_missing(materials, 2, log);
    }
    return *set;
}

wdl::chess::Board board(const char* fen) {
    wdl::chess::Board board;
    REQUIRE(board.set_fen(fen));
    return board;
}

}  // namespace

TEST_CASE("a mate in one", "[tablebase][probe]") {
    auto source = make_own_source(three_man_tables(Metric::DTM));
    auto result = source->move_values(board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"));
    REQUIRE(result.moves);
    CHECK(best_value(*result.moves) == Value{Outcome::Win, 1});
    int mates = 0;
    for (const auto& move : *result.moves) mates += move.after == Value{Outcome::Loss, 0};
    CHECK(mates == 1);  // Qb8#
}

TEST_CASE("a stalemate has no moves and is a draw", "[tablebase][probe]") {
    auto& tables = three_man_tables(Metric::DTM);
    auto source = make_own_source(tables);
    auto result = source->move_values(board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
    REQUIRE(result.moves);
    CHECK(result.moves->empty());
    auto position = position_from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CHECK(tables.find(*Material::parse("KQK"))->probe(*position) == Value{});
}

TEST_CASE("KPK: the opposition decides", "[tablebase][probe]") {
    auto source = make_own_source(three_man_tables(Metric::DTM));
    auto white = source->move_values(board("8/8/4k3/8/4K3/4P3/8/8 w - - 0 1"));
    auto black = source->move_values(board("8/8/4k3/8/4K3/4P3/8/8 b - - 0 1"));
    REQUIRE(white.moves);
    REQUIRE(black.moves);
    CHECK(best_value(*white.moves).outcome == Outcome::Draw);
    CHECK(best_value(*black.moves).outcome == Outcome::Loss);
}

TEST_CASE("own and Gaviota sources agree on every move", "[tablebase][probe][gaviota]") {
    GaviotaTables gaviota;
    auto own = make_own_source(three_man_tables(Metric::DTM));
    auto reference = make_gaviota_source(gaviota);
    for (const char* fen : {"8/8/4k3/8/4K3/4P3/8/8 w - - 0 1", "8/8/8/3k4/8/8/2R5/K7 w - - 0 1",
                            "8/8/8/8/8/2k5/1p6/3K4 b - - 0 1"}) {
        auto a = own->move_values(board(fen));
        auto b = reference->move_values(board(fen));
        REQUIRE(a.moves);
        REQUIRE(b.moves);
        REQUIRE(a.moves->size() == b.moves->size());
        for (std::size_t i = 0; i < a.moves->size(); ++i)
            CHECK((*a.moves)[i].after == (*b.moves)[i].after);
    }
}

TEST_CASE("DTC values a conversion at depth 0", "[tablebase][probe]") {
    auto source = make_own_source(three_man_tables(Metric::DTC));
    // Black's king takes the rook: a drawn KK.
    auto result = source->move_values(board("8/8/8/8/8/8/2Rk4/K7 b - - 0 1"));
    REQUIRE(result.moves);
    CHECK(best_value(*result.moves).outcome == Outcome::Draw);
}

TEST_CASE("missing tables and damaged table files", "[tablebase][files]") {
    fs::path directory = wdl::testing::fresh_directory("damaged-tables");
    TableSet empty(directory, Metric::DTM);
    auto source = make_own_source(empty);
    auto result = source->move_values(board("8/8/8/3k4/8/8/2R5/K7 w - - 0 1"));
    CHECK_FALSE(result.moves);
    CHECK(result.uncovered == "no DTM table for KRK");
    REQUIRE(empty.problems().size() == 1);
    CHECK(empty.problems()[0].find("KRK.dtm.wdltb") != std::string::npos);

    // A copy of a good file with one byte of its data changed fails the checksum.
    auto& good = three_man_tables(Metric::DTM);
    fs::path original = good.directory() / "KRK.dtm.wdltb";
    fs::path broken = directory / "KRK.dtm.wdltb";
    fs::copy_file(original, broken);
    {
        std::fstream file(broken, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(std::streamoff(fs::file_size(broken) - 10));
        char byte = 0;
        file.read(&byte, 1);
        file.seekp(std::streamoff(fs::file_size(broken) - 10));
        byte = char(byte ^ 0x5a);
        file.write(&byte, 1);
    }
    CHECK_THROWS_AS(read_table_file(broken), wdl::Error);
    TableSet damaged(directory, Metric::DTM);
    CHECK(damaged.find(*Material::parse("KRK")) == nullptr);
    REQUIRE(damaged.problems().size() == 1);
    CHECK(damaged.problems()[0].find("KRK.dtm.wdltb") != std::string::npos);
    CHECK(read_table_file(original).codes(wdl::chess::Color::White).size() > 0);
}
