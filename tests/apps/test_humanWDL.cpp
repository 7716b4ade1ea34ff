// humanWDL on the real lichess sample of tests/data (240 rated rapid games with server
// analysis), scanned by scoreWDLstat --human: the report, its JSON twin, the model file that
// queryWDL reads, the plots, and what too few games give.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "program_runner.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

ProgramRun run_checked(const std::string& name, const std::vector<std::string>& arguments,
                       const fs::path& dir) {
    auto run = run_program(name, arguments, dir);
    INFO(name << ": " << run.output);
    REQUIRE(run.exit_code == 0);
    return run;
}

fs::path scanned_sample(const fs::path& dir, int groups) {
    run_checked("scoreWDLstat",
                {"--human", "--groups", std::to_string(groups), "--file",
                 test_data_path("lichess/sample.pgn.zst").string(), "-o", "human.txt"},
                dir);
    return dir / "human.txt";
}

}  // namespace

TEST_CASE("humanWDL fits the lichess sample and beats lichess's Win% on held-out groups",
          "[apps][human]") {
    auto dir = fresh_directory("human_wdl_sample");
    scanned_sample(dir, 16);
    auto run = run_checked("humanWDL",
                           {"human.txt", "--folds", "4", "--concurrency", "2", "-o", "model.json",
                            "--json", "report.json"},
                           dir);
    CHECK_THAT(run.output, Catch::Contains("Form by held-out log-loss"));
    CHECK_THAT(run.output, Catch::Contains("Held-out comparison"));
    const auto report = nlohmann::json::parse(read_text_file(dir / "report.json"));
    REQUIRE(report["classes"].size() == 1);
    const auto& rapid = report["classes"][0];
    CHECK(rapid["speed"] == "rapid");
    CHECK(rapid["fit"]["positiveCurvature"] == true);
    CHECK(rapid["fit"]["gradientPerPosition"].get<double>() < 1e-7);
    // Every band is judged or says it has too few games; over all bands the fitted W/D/L beats
    // lichess's (with the band's draw rate) by more than two standard errors of the paired
    // difference, and its expected score beats lichess's Win%.
    const auto& bands = rapid["comparison"]["bands"];
    REQUIRE(bands.size() == 6);
    for (const auto& band : bands) CHECK((band.contains("verdict") || band.contains("predictors")));
    const auto& all = bands.back();
    REQUIRE(all["band"] == "all");
    const auto& lichess = all["predictors"]["lichess"];
    CHECK(lichess["versusFitted"].get<double>() > 2 * lichess["versusFittedError"].get<double>());
    CHECK(lichess["scoreLoss"].get<double>() >
          all["predictors"]["fitted"]["scoreLoss"].get<double>());
    // The model file answers queryWDL.
    auto query = run_checked(
        "queryWDL", {"--model", "model.json", "--elo", "1500,1600", "--tc", "600+5", "--json", "-"},
        dir);
    const auto rows = nlohmann::json::parse(query.output)["wdl"];
    REQUIRE(!rows.empty());
    for (const auto& row : rows)
        CHECK(row["win"].get<double>() + row["draw"].get<double>() + row["loss"].get<double>() ==
              Approx(1));
}

TEST_CASE("humanWDL names a class with too few games instead of fitting it", "[apps][human]") {
    auto dir = fresh_directory("human_wdl_few");
    scanned_sample(dir, 4);
    auto run = run_program("humanWDL", {"human.txt", "-o", "model.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.output, Catch::Contains("too few games to fit"));
    CHECK_THAT(run.output, Catch::Contains("no speed class has enough games"));
    CHECK(!fs::exists(dir / "model.json"));
}

TEST_CASE("humanWDL within a memory limit fits the first groups and counts what it left out",
          "[apps][human]") {
    auto dir = fresh_directory("human_wdl_memory");
    scanned_sample(dir, 64);
    auto whole = run_checked(
        "humanWDL", {"human.txt", "--forms", "flat", "--folds", "4", "--json", "whole.json"}, dir);
    CHECK_THAT(whole.output, !Catch::Contains("Memory limit"));
    // The sample's 16,000 cells take about 1.1 MB: 1 MB holds most of its 64 groups.
    auto limited = run_checked("humanWDL",
                               {"human.txt", "--forms", "flat", "--folds", "4", "--memoryLimit",
                                "1", "--json", "limited.json"},
                               dir);
    CHECK_THAT(limited.output, Catch::Contains("Memory limit 1 MB: fitted the file's first"));
    const auto all = nlohmann::json::parse(read_text_file(dir / "whole.json"));
    const auto part = nlohmann::json::parse(read_text_file(dir / "limited.json"));
    CHECK(all["groupsFitted"] == 64);
    CHECK(all["positionsLeftOut"] == 0);
    const int kept = part["groupsFitted"].get<int>();
    CHECK(kept >= 2);
    CHECK(kept < 64);
    // Every position is fitted, a mate left out of the fit, or left out by the limit.
    const auto positions = [](const nlohmann::json& report) {
        const auto& rapid = report["classes"][0];
        return rapid["positions"].get<double>() + rapid["matePositions"].get<double>();
    };
    CHECK(positions(part) + part["positionsLeftOut"].get<double>() == positions(all));
    // (A group of the 225 games' 64 may hold none of them.)
    CHECK(part["classes"][0]["groups"].get<int>() <= kept);
    CHECK(part["classes"][0]["groups"].get<int>() < all["classes"][0]["groups"].get<int>());

    auto refused = run_program("humanWDL", {"human.txt", "--memoryLimit", "0"}, dir);
    CHECK(refused.exit_code != 0);
    CHECK_THAT(refused.output, Catch::Contains("--memoryLimit"));
}
