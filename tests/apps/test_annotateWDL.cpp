// GCC 12 warns falsely inside libstdc++'s <regex> when built with ASan.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <catch2/catch.hpp>
#include <filesystem>
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
