#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "help_text.hpp"
#include "program_runner.hpp"
#include "test_data.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

// Its --help printed `ENUM:value in {DTC->0,DTM->1} OR {0,1}` and took the numbers too.
TEST_CASE("scoreCompetence --metric takes the metrics by name, as its --help lists them",
          "[apps][scoreCompetence]") {
    auto help = run_program("scoreCompetence", {"--help"});
    REQUIRE(help.exit_code == 0);
    auto entries = help_entries(help.output);
    const HelpEntry* metric = find_help_entry(entries, "--metric");
    REQUIRE(metric != nullptr);
    CHECK(metric->type == "DTC|DTM (default: DTC)");
    for (const char* wrong : {"dtx", "0", "dtc"}) {
        auto run = run_program("scoreCompetence", {"--metric", wrong, "--file", "none.pgn"});
        INFO(run.output);
        CHECK(run.exit_code != 0);
        CHECK_THAT(run.output,
                   Catch::Contains(std::string("'") + wrong + "' is not one of DTC|DTM"));
    }
}

TEST_CASE("scoreCompetence on the bundled games with Gaviota tables", "[apps][scoreCompetence]") {
    auto dir = fresh_directory("scoreCompetence");
    auto json = dir / "competence.json";
    auto decisions = dir / "decisions.jsonl";
    auto run = run_program("scoreCompetence",
                           {"--dir", corpus_path().string(), "-r", "--tables", "gaviota", "--json",
                            json.string(), "--decisions", decisions.string(), "--cstep", "1"});
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("Games: 800 read"));
    std::ifstream in(json);
    auto report = nlohmann::json::parse(in);
    CHECK(report["grid"]["step"] == 1.0);
    std::uint64_t count = report["counts"]["decisions"];
    CHECK(count > 100);
    // Each group's log-likelihood and posterior are on the grid (51 points).
    for (const auto& group : report["groups"]) {
        CHECK(group["log_likelihood"].size() == 51);
        CHECK(group["posterior"].size() == 51);
    }
    CHECK(lines_of(read_text_file(decisions)).size() == count);

    // The posterior as the prior of a second run on another grid is refused, in one line.
    auto again = run_program("scoreCompetence", {"--dir", corpus_path().string(), "-r", "--tables",
                                                 "gaviota", "--prior", json.string()});
    CHECK(again.exit_code == 1);
    CHECK_THAT(again.output, Catch::Contains("Error: ") && Catch::Contains("another c grid"));
}

TEST_CASE("scoreCompetence: a missing file is one error line", "[apps][scoreCompetence]") {
    auto run = run_program("scoreCompetence", {"--file", "no-such-file.pgn"});
    CHECK(run.exit_code == 1);
    CHECK(lines_of(run.output).size() == 1);
    CHECK_THAT(run.output, Catch::StartsWith("Error: "));
}

TEST_CASE("scoreCompetence's first run generates the tables its games need",
          "[apps][scoreCompetence]") {
    auto dir = fresh_directory("scoreCompetence-first-run");
    // Two KRK games from a table win, one converted, one drawn.
    std::string game =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n"
        "[FEN \"8/8/8/3k4/8/8/2R5/K7 w - - 0 1\"]\n\n1. Kb2 Ke4 2. Kc3 Ke5 1/2-1/2\n\n";
    fs::create_directories(dir / "games");
    write_text_file(dir / "games" / "krk.pgn", game);
    auto tables = dir / "tables";
    auto refused = run_program("scoreCompetence", {"--dir", (dir / "games").string(), "--tableDir",
                                                   tables.string(), "--noGenerate"});
    INFO(refused.output);
    CHECK(refused.exit_code == 0);
    CHECK_THAT(refused.output, Catch::Contains("no decision") &&
                                   Catch::Contains("tables are missing") &&
                                   Catch::Contains("no DTC table for KRK"));
    CHECK_FALSE(fs::exists(tables / "KRK.dtc.wdltb"));

    auto first = run_program("scoreCompetence",
                             {"--dir", (dir / "games").string(), "--tableDir", tables.string()});
    INFO(first.output);
    CHECK(first.exit_code == 0);
    CHECK_THAT(first.output, Catch::Contains("Generating the DTC table of KRK"));
    CHECK_THAT(first.output, !Catch::Contains("no DTC table") && !Catch::Contains("no decision"));
    CHECK(fs::exists(tables / "KRK.dtc.wdltb"));
    CHECK_FALSE(fs::exists(tables / "KQKR.dtc.wdltb"));
}

// It hung at 2 threads once the table of KNK was generated: the lock of the tables was held
// across the generation of KNKN, whose OpenMP workers looked KNK up.
TEST_CASE("scoreCompetence's first run generates a table after the tables of its subgames",
          "[apps][scoreCompetence]") {
    auto dir = fresh_directory("scoreCompetence-first-run-subgames");
    std::string game =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n"
        "[FEN \"8/8/3nk3/8/8/3NK3/8/8 w - - 0 1\"]\n\n1. Kf4 Kf6 2. Ke3 Ke6 1/2-1/2\n\n";
    auto file = dir / "knkn.pgn";
    write_text_file(file, game);
    auto tables = dir / "tables";
    auto run =
        run_program("scoreCompetence",
                    {"--file", file.string(), "--tableDir", tables.string(), "--concurrency", "2"},
                    {}, std::chrono::minutes(2));
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("Generating the DTC table of KNKN") &&
                               Catch::Contains("Generated KNK DTC") &&
                               Catch::Contains("Generated KNKN DTC"));
    CHECK_THAT(run.output, !Catch::Contains("no DTC table"));
    CHECK(fs::exists(tables / "KNK.dtc.wdltb"));
    CHECK(fs::exists(tables / "KNKN.dtc.wdltb"));
}

// Games whose pawn takes a piece and promotes at once, to each piece, for each colour: the
// table of their endgame (KBKP, Black's pawn; KPKB, White's) ended a first run with
// std::terminate, as it converts into KQK, KRK, KBK and KNK, and so did a second run. The
// first run generates at 2 threads on an empty folder, the second reads those tables at 1.
TEST_CASE("scoreCompetence's first run on games whose pawns take and promote to every piece",
          "[apps][scoreCompetence]") {
    std::string games;
    auto game = [&](const std::string& fen, const std::string& moves, const char* result) {
        games += "[White \"A\"]\n[Black \"B\"]\n[Result \"" + std::string(result) + "\"]\n[FEN \"" +
                 fen + "\"]\n[SetUp \"1\"]\n\n" + moves + " " + result + "\n\n";
    };
    for (const char* piece : {"Q", "R", "B", "N"}) {
        // Black: the pawn on b2 takes the bishop on a1 (KBKP into KQK, KRK, KBK, KNK).
        game("7k/8/8/7K/8/8/1p6/B7 b - - 0 1",
             std::string("1... bxa1=") + piece + " {-5.20/12 0.05s} 2. Kg5 {+0.00/10 0.04s}",
             "0-1");
        // White: the pawn on b7 takes the bishop on a8 (KPKB, the same table flipped).
        game("b7/1P6/8/8/7k/8/8/7K w - - 0 1",
             std::string("1. bxa8=") + piece + " {+5.20/12 0.05s} Kg4 {-0.00/10 0.04s}", "1-0");
    }
    auto dir = fresh_directory("scoreCompetence-first-run-promotions");
    auto file = dir / "promotions.pgn";
    write_text_file(file, games);
    auto tables = dir / "tables";
    std::vector<nlohmann::json> reports;
    for (const char* threads : {"2", "1"}) {
        CAPTURE(threads);
        auto json = dir / (std::string("competence-") + threads + ".json");
        auto run = run_program("scoreCompetence",
                               {"--file", file.string(), "--tableDir", tables.string(),
                                "--concurrency", threads, "--json", json.string()},
                               {}, std::chrono::minutes(10));
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        bool first = reports.empty();
        CHECK(Catch::Contains("Generated KBKP DTC").match(run.output) == first);
        if (first) {
            CHECK_THAT(run.output, Catch::Contains("Generating the DTC table of KBKP") &&
                                       Catch::Contains("Generated KQK DTC") &&
                                       Catch::Contains("Generated KNK DTC"));
        }
        CHECK_THAT(run.output, !Catch::Contains("no DTC table") && !Catch::Contains("cannot play"));
        std::ifstream in(json);
        auto counts = nlohmann::json::parse(in)["counts"];
        CHECK(counts["games_read"] == 8);
        CHECK(counts["games_with_table_positions"] == 8);
        // Each game: the 4-man position before the promotion, the 3-man one after it.
        CHECK(counts["positions_3_4_men"] == 16);
        CHECK(counts["table_positions"] == 16);
        CHECK(counts["not_covered"].empty());
        CHECK(counts["decisions"] > 0);
        reports.push_back(counts);
    }
    CHECK(reports[0] == reports[1]);
}

TEST_CASE("every program that reads games stops with one error on a folder without games",
          "[apps][scoreCompetence]") {
    auto dir = fresh_directory("no-games");
    write_text_file(dir / "notes.txt", "no games here\n");
    for (const char* program : {"scoreWDLstat", "markovWDL", "scoreCompetence"}) {
        CAPTURE(program);
        auto run = run_program(program, {"--dir", dir.string(), "-r"});
        CHECK(run.exit_code == 1);
        CHECK_THAT(run.output,
                   Catch::Contains("Error: no .pgn, .pgn.gz or .pgn.zst files in " + dir.string()));
    }
}
