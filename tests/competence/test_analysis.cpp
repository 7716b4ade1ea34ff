#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

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
    CHECK(one.decisions_kept == two.decisions_kept);
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
    CHECK(result.files.files_unreadable == 1);
    REQUIRE(result.files.warnings.size() == 3);
    // In path order: missing.pgn before mixed.pgn.
    CHECK(result.files.warnings[0].find("missing.pgn") != std::string::npos);
    CHECK(result.files.warnings[1].find("mixed.pgn, game 1: invalid FEN") != std::string::npos);
    CHECK(result.files.warnings[2].find("mixed.pgn, game 2: cannot play move \"Rc2\"") !=
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

TEST_CASE("a game lost on time or of another variant is skipped as the scanner skips it",
          "[competence][analysis]") {
    fs::path directory = scratch("rules");
    // A table win for White (KRK) that White then "loses" on time: no conversion failure.
    std::string on_time =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\nKb2 Ke4 0-1\n\n";
    std::string lichess_time =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\nKb2 Ke4 0-1\n\n";
    std::string crazyhouse =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Variant \"Crazyhouse\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\nKb2 Ke4 1-0\n\n";
    std::string not_converted =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\nKb2 Ke4 0-1\n\n";
    auto source = tb::make_gaviota_source(gaviota());
    auto skipped =
        analyse_files({write_file(directory / "skipped.pgn", on_time + lichess_time + crazyhouse)},
                      *source, settings(1));
    CHECK(skipped.games_read == 3);
    CHECK(skipped.games_skipped == 3);
    CHECK(skipped.games_with_table_positions == 0);
    CHECK(skipped.failures.empty());
    REQUIRE(skipped.files.warnings.size() == 1);  // only the variant is a broken record
    CHECK_THAT(skipped.files.warnings[0], Catch::Contains("unsupported variant \"Crazyhouse\""));

    // The same game without the Termination tag is a win not converted.
    auto counted =
        analyse_files({write_file(directory / "counted.pgn", not_converted)}, *source, settings(1));
    CHECK(counted.games_skipped == 0);
    CHECK(counted.conversions.at({"KRK", "A"}).wins_not_converted == 1);
}

TEST_CASE("a Chess960 game in any spelling of the variant is read", "[competence][analysis]") {
    fs::path directory = scratch("chess960");
    auto source = tb::make_gaviota_source(gaviota());
    for (std::string variant : {"chess960", "Chess 960", "fischerandom", "Fischer Random"}) {
        CAPTURE(variant);
        std::string game = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Variant \"" + variant +
                           "\"]\n[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\nKb2 1-0\n\n";
        auto result = analyse_files({write_file(directory / "g.pgn", game)}, *source, settings(1));
        CHECK(result.games_skipped == 0);
        CHECK(result.games_with_table_positions == 1);
    }
}

TEST_CASE("missing own tables are generated when the games first meet their endgame",
          "[competence][analysis]") {
    fs::path tables = scratch("on-demand-tables");
    fs::path directory = scratch("on-demand");
    std::mt19937_64 random(3);
    auto file = write_file(directory / "krk.pgn", random_game("8/8/8/3k4/8/8/2R5/K7 w - - 0 1", 12,
                                                              random, "A", "B", "1/2-1/2"));
    tb::TableSet own(tables, tb::Metric::DTC);
    std::ostringstream log;
    own.generate_on_demand(1, log);
    auto source = tb::make_own_source(own);
    AnalysisResult result = analyse_files({file}, *source, settings(2));
    CHECK(result.decisions > 0);
    CHECK(result.uncovered.empty());
    for (const auto& problem : own.problems()) FAIL_CHECK(problem);
    CHECK_THAT(log.str(), Catch::Contains("Generating the DTC table of KRK (met in the games)"));
    // Only what the game needs: KRK and the endgames it converts into, no 4-man table.
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(tables)) {
        CAPTURE(entry.path());
        CHECK(entry.path().filename().string().size() < std::string("KRKR.dtc.wdltb").size());
        ++files;
    }
    CHECK(files >= 1);
    CHECK(files <= 2);
}
