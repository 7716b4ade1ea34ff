// GCC 12 warns falsely inside libstdc++'s <regex> when built with ASan.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "program_runner.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

ProgramRun annotate(const std::vector<std::string>& arguments, const fs::path& directory) {
    return run_program("annotateWDL", arguments, directory);
}

const char* const kGames = "24-11-05/fada7bd8c58aff62bbd52188/fada7bd8c58aff62bbd52188.pgn.gz";

}  // namespace

TEST_CASE("annotateWDL annotates fishtest games and sums up each player", "[apps][annotate]") {
    auto dir = fresh_directory("annotate_games");
    auto run = annotate({corpus_path(kGames).string(), "-o", "annotated.pgn", "--model", "sf18",
                         "--wdlComments", "--json", "summary.json", "--plot", "curves.png"},
                        dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("Annotated 80 games (80 with evals; 0 copied"));
    auto annotated = read_text_file(dir / "annotated.pgn");
    static const std::regex added(R"( \$\d+| \[%wdl \d+,\d+,\d+\]| \{\[%wdl \d+,\d+,\d+\]\})");
    CHECK(std::regex_replace(annotated, added, "") == read_decompressed(corpus_path(kGames)));
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    REQUIRE(summary["players"].size() == 2);
    for (const auto& player : summary["players"]) {
        CHECK(player["moves"].get<int>() > 3000);
        CHECK(player["accuracy"].get<double>() > 0);
        CHECK(player["accuracy"].get<double>() <= 100);
    }
    CHECK(fs::file_size(dir / "curves.png") > 10000);
}

TEST_CASE("annotateWDL errors are one line and exit 1", "[apps][annotate]") {
    auto dir = fresh_directory("annotate_errors");
    for (const auto& arguments : std::vector<std::vector<std::string>>{
             {corpus_path(kGames).string(), "--model", "sf99"}, {"missing.pgn"}}) {
        auto run = annotate(arguments, dir);
        INFO(run.output);
        CHECK(run.exit_code == 1);
        CHECK(lines_of(run.output).back().rfind("Error: ", 0) == 0);
        CHECK_FALSE(fs::exists(dir / "annotated.pgn"));
    }
}

namespace {

// lichess's formulas as its accuracy page publishes them, written out afresh for the test.
double lichess_win(double cp) {
    cp = std::clamp(cp, -1000.0, 1000.0);
    return 50 + 50 * (2 / (1 + std::exp(-0.00368208 * cp)) - 1);
}
double lichess_move(double before, double after) {
    if (after >= before) return 100;
    double value =
        103.1668100711649 * std::exp(-0.04354415386753951 * (before - after)) - 3.166924740191411;
    return std::clamp(value + 1, 0.0, 100.0);
}

// A 4-ply game's accuracy of one side (moves 0 and 2 for White, 1 and 3 for Black) from White's
// evals after each ply: windows of two Win% values, weighted by half their difference.
double lichess_four_ply(const std::vector<double>& cps, bool white) {
    std::vector<double> win{lichess_win(15)};
    for (double cp : cps) win.push_back(lichess_win(cp));
    double weighted = 0, weights = 0, reciprocals = 0;
    for (std::size_t i = white ? 0 : 1; i < 4; i += 2) {
        double accuracy =
            white ? lichess_move(win[i], win[i + 1]) : lichess_move(100 - win[i], 100 - win[i + 1]);
        double weight = std::clamp(std::abs(win[i + 1] - win[i]) / 2, 0.5, 12.0);
        weighted += accuracy * weight;
        weights += weight;
        reciprocals += 1 / std::max(1.0, accuracy);
    }
    return (weighted / weights + 2 / reciprocals) / 2;
}

}  // namespace

TEST_CASE("annotateWDL --lichess reproduces lichess's accuracy formulas", "[apps][annotate]") {
    auto dir = fresh_directory("annotate_lichess");
    // Game 1: lichess [%eval] comments, White's evals. Game 2: engine comments, the mover's eval
    // (Black's -0.25 is White's +0.25) and a mate, which lichess counts as 10 pawns. Game 3:
    // book moves first.
    write_text_file(dir / "games.pgn",
                    "[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n"
                    "1. e4 { [%eval 0.3] } e5 { [%eval 0.1] } 2. Nf3 { [%eval -0.5] } "
                    "Nc6 { [%eval -0.4] } *\n\n"
                    "[White \"Carol\"]\n[Black \"Dave\"]\n[Result \"*\"]\n\n"
                    "1. d4 {+0.20/9 0.1s} d5 {-0.25/9 0.1s} 2. c4 {+0.10/9 0.1s} "
                    "e6 {+M7/20 0.1s} *\n\n"
                    "[White \"Erin\"]\n[Black \"Frank\"]\n[Result \"*\"]\n\n"
                    "1. e4 {book} e5 {book} 2. Nf3 {+0.30/9 0.1s} Nc6 {-0.20/9 0.1s} "
                    "3. Bb5 {+0.40/9 0.1s} a6 {-0.35/9 0.1s} *\n");
    auto run = annotate({"games.pgn", "--model", "sf18", "--lichess", "--json", "s.json"}, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(has_line_with(run.output, "player", "lichess"));
    auto summary = nlohmann::json::parse(read_text_file(dir / "s.json"));
    std::map<std::string, double> expected{
        {"Alice", lichess_four_ply({30, 10, -50, -40}, true)},
        {"Bob", lichess_four_ply({30, 10, -50, -40}, false)},
        {"Carol", lichess_four_ply({20, 25, 10, -1000}, true)},
        {"Dave", lichess_four_ply({20, 25, 10, -1000}, false)},
        // Game 3's book moves have no eval: lichess's plies start after them.
        {"Erin", lichess_four_ply({30, 20, 40, 35}, true)},
        {"Frank", lichess_four_ply({30, 20, 40, 35}, false)}};
    REQUIRE(summary["players"].size() == 6);
    for (const auto& player : summary["players"]) {
        auto name = player["name"].get<std::string>();
        CAPTURE(name);
        const auto& lichess = player["lichess"];
        CHECK(lichess["games"] == 1);
        CHECK(lichess["moves"] == 2);
        CHECK(lichess["gameAccuracy"].get<double>() == Approx(expected.at(name)));
    }
    // Carol's first move gains nothing and loses nothing: 0.15 -> 0.20 is a gain, so 100.
    const auto& carol = summary["players"][2];  // players by name
    REQUIRE(carol["name"] == "Carol");
    double second = lichess_move(lichess_win(25), lichess_win(10));
    CHECK(carol["lichess"]["moveAccuracy"].get<double>() == Approx((100 + second) / 2));
    // Without --lichess the summary has no lichess column or fields.
    auto plain = annotate({"games.pgn", "--model", "sf18", "--json", "p.json"}, dir);
    REQUIRE(plain.exit_code == 0);
    CHECK_FALSE(has_line_with(plain.output, "player", "lichess"));
    auto plain_summary = nlohmann::json::parse(read_text_file(dir / "p.json"));
    CHECK_FALSE(plain_summary["players"][0].contains("lichess"));
}

TEST_CASE("annotateWDL reads evals by the model's display rule unless a normalization is given",
          "[apps][annotate]") {
    auto dir = fresh_directory("annotate_display_rule");
    auto by_rule = annotate({corpus_path(kGames).string(), "--model", "sf15.1"}, dir);
    INFO(by_rule.output);
    REQUIRE(by_rule.exit_code == 0);
    CHECK_THAT(lines_of(by_rule.output).front(),
               Catch::Contains("evals converted with its display rule, 100 v / 361, truncated"));
    auto given = annotate(
        {corpus_path(kGames).string(), "--model", "sf15.1", "--NormalizeData", "sf18"}, dir);
    INFO(given.output);
    REQUIRE(given.exit_code == 0);
    CHECK_THAT(lines_of(given.output).front(),
               Catch::Contains("evals converted with NormalizeData = {'momType': 'material'"));
}
