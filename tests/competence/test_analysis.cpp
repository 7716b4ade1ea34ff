#include <catch2/catch.hpp>
#include <filesystem>

#include "game_files.hpp"
#include "program_runner.hpp"
#include "wdl/competence/analysis.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/table_set.hpp"

using namespace wdl::competence;
using namespace competence_test;
namespace tb = wdl::tablebase;

namespace {

fs::path scratch(const std::string& name) {
    return wdl::testing::fresh_directory("competence-" + name);
}

tb::GaviotaTables& gaviota() {
    static tb::GaviotaTables tables;
    return tables;
}

AnalysisSettings settings(int threads) {
    AnalysisSettings s;
    s.grid = CompetenceGrid(0, 50, 0.5);
    s.threads = threads;
    s.keep_decisions = true;
    return s;
}

}  // namespace

TEST_CASE("the same results for 1 and 2 threads and any file order", "[competence][analysis]") {
    auto files = random_game_files(scratch("order"), 5, 12);
    auto source = tb::make_gaviota_source(gaviota());
    AnalysisResult one = analyse_files(files, *source, settings(1));
    std::reverse(files.begin(), files.end());
    AnalysisResult two = analyse_files(files, *source, settings(2));
    REQUIRE(one.decisions > 100);
    CHECK(one.decisions == two.decisions);
    REQUIRE(one.groups.size() == two.groups.size());
    for (const auto& [group, totals] : one.groups) {
        CAPTURE(group);
        REQUIRE(two.groups.count(group));
        CHECK(totals.decisions == two.groups[group].decisions);
        CHECK(totals.log_likelihood == two.groups[group].log_likelihood);  // bit for bit
    }
    CHECK(one.decision_lines == two.decision_lines);
    CHECK(one.failures.size() == two.failures.size());
    CHECK(one.groups.count("engine=New role=attacker"));
    CHECK(one.groups.count("engine=Base endgame=KRK"));
}

TEST_CASE("bad games and files give one line each and lose nothing else",
          "[competence][analysis]") {
    fs::path directory = scratch("bad");
    std::mt19937_64 random(7);
    std::string good = random_game("8/8/8/3k4/8/8/2R5/K7 w - - 0 1", 20, random, "A", "B", "1-0");
    auto good_file = write_file(directory / "good.pgn", good);
    auto source = tb::make_gaviota_source(gaviota());
    AnalysisResult alone = analyse_files({good_file}, *source, settings(1));
    REQUIRE(alone.decisions > 0);

    std::string bad_fen =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[FEN \"8/8/8/8 w - -\"]\n\n"
        "Kb2 1-0\n\n";
    std::string illegal =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\nRc2 Ke5 1-0\n\n";
    std::string no_table =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n";
    auto mixed = write_file(directory / "mixed.pgn", bad_fen + illegal + no_table + good);
    AnalysisResult result = analyse_files({mixed, directory / "missing.pgn"}, *source, settings(2));
    CHECK(result.decisions == alone.decisions);
    CHECK(result.groups.at("all").log_likelihood == alone.groups.at("all").log_likelihood);
    CHECK(result.games_read == 4);
    CHECK(result.games_skipped == 2);
    CHECK(result.files_unreadable == 1);
    REQUIRE(result.warnings.size() == 3);
    // In path order: missing.pgn before mixed.pgn.
    CHECK(result.warnings[0].find("missing.pgn") != std::string::npos);
    CHECK(result.warnings[1].find("mixed.pgn, game 1: invalid FEN") != std::string::npos);
    CHECK(result.warnings[2].find("mixed.pgn, game 2: cannot play move \"Rc2\"") !=
          std::string::npos);
    CHECK(result.games_with_table_positions == 1);  // the good game; e4 e5 has none
}

TEST_CASE("missing tables: positions counted as not covered", "[competence][analysis]") {
    auto files = random_game_files(scratch("missing"), 1, 3);
    tb::TableSet empty(scratch("no-tables"), tb::Metric::DTC);
    auto source = tb::make_own_source(empty);
    AnalysisResult result = analyse_files(files, *source, settings(1));
    CHECK(result.decisions == 0);
    CHECK(result.small_positions > 0);
    CHECK(result.uncovered.count("no DTC table for KRK"));
    CHECK_FALSE(empty.problems().empty());
}

TEST_CASE("the 50-move rule and book moves", "[competence][analysis]") {
    fs::path directory = scratch("fifty");
    // KRK with the clock at 95: every mate is further than 5 plies, so each decision of the
    // attacker is affected.
    std::string game =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 95 80\"]\n\n"
        "80. Kb2 {book} Ke4 {+0.1/1} 81. Kc3 {-5.0/10} 1/2-1/2\n\n";
    auto file = write_file(directory / "fifty.pgn", game);
    auto source = tb::make_gaviota_source(gaviota());
    AnalysisSettings skip = settings(1);
    AnalysisResult skipped = analyse_files({file}, *source, skip);
    CHECK(skipped.book_positions == 1);
    CHECK(skipped.fifty_move_affected == 2);
    CHECK(skipped.fifty_move_skipped == 2);
    CHECK(skipped.decisions == 0);
    AnalysisSettings ignore = settings(1);
    ignore.fifty_move_rule = FiftyMoveRule::Ignore;
    CHECK(analyse_files({file}, *source, ignore).decisions == 2);
    // Counted as draws, the attacker's moves all look alike: no information.
    AnalysisSettings draw = settings(1);
    draw.fifty_move_rule = FiftyMoveRule::Draw;
    AnalysisResult drawn = analyse_files({file}, *source, draw);
    CHECK(drawn.fifty_move_skipped == 0);
    CHECK(drawn.decisions + drawn.indifferent == 2);
}
