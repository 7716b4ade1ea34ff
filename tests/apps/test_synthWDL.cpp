#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/counts/count_file.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

ProgramRun synth(std::vector<std::string> arguments, const fs::path& dir) {
    return run_program("synthWDL", arguments, dir);
}

std::int64_t total_count(const fs::path& file) {
    std::int64_t total = 0;
    wdl::counts::read_count_file(
        file, [&](const wdl::counts::PositionKey&, std::int64_t c) { total += c; });
    return total;
}

}  // namespace

TEST_CASE("synthWDL writes the same count file for a seed, on any threads", "[apps][synth]") {
    fs::path dir = fresh_directory("synth_seed");
    REQUIRE(synth({"-n", "3e5", "-o", "a.json", "--threads", "1"}, dir).exit_code == 0);
    REQUIRE(synth({"-n", "3e5", "-o", "b.json", "--threads", "2"}, dir).exit_code == 0);
    REQUIRE(synth({"-n", "3e5", "-o", "c.json", "--seed", "2"}, dir).exit_code == 0);
    CHECK(read_text_file(dir / "a.json") == read_text_file(dir / "b.json"));
    CHECK(read_text_file(dir / "a.json") != read_text_file(dir / "c.json"));
    CHECK(total_count(dir / "a.json") == 300000);
    fs::remove_all(dir);
}

TEST_CASE("games are written as grouped counts that scoreWDL resamples", "[apps][synth]") {
    fs::path dir = fresh_directory("synth_games");
    auto run = synth({"-n", "2e5", "-o", "games.json", "--games", "--positionsPerGame", "80",
                      "--json", "summary.json"},
                     dir);
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("split into 64 groups by game"));
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["positions"] == 200000);
    CHECK(summary["games"].get<int>() > 2000);
    CHECK(summary["games"].get<int>() < 3000);
    CHECK(summary["groups"] == 64);
    CHECK(summary["model"]["momType"] == "material");
    CHECK(wdl::testing::grouped_file_header(dir / "games.json")["format"] ==
          "wdlfit-grouped-counts");
    CHECK(total_count(dir / "games.json") == 200000);
    auto fit = run_program("scoreWDL", {"games.json", "--plot", "no"}, dir);
    REQUIRE(fit.exit_code == 0);
    CHECK(has_line_with(fit.output, "NormalizeToPawnValue = ", "jackknife over 64 game groups"));
    fs::remove_all(dir);
}

TEST_CASE("the true model comes from a model file or from as and bs", "[apps][synth]") {
    fs::path dir = fresh_directory("synth_model");
    write_text_file(dir / "model.json", R"({"model": {"as": [0, 0, 0, 300], "bs": [0, 0, 0, 60],)"
                                        R"( "momType": "move", "momTarget": 32}})");
    auto from_file = synth({"-n", "1e5", "-o", "f.json", "--model", "model.json",
                            "--NormalizeToPawnValue", "300", "--json", "f_summary.json"},
                           dir);
    REQUIRE(from_file.exit_code == 0);
    auto from_coefficients =
        synth({"-n", "1e5", "-o", "c.json", "--as", "0,0,0,300", "--bs", "0,0,0,60", "--momType",
               "move", "--momTarget", "32", "--NormalizeToPawnValue", "300"},
              dir);
    REQUIRE(from_coefficients.exit_code == 0);
    CHECK(read_text_file(dir / "f.json") == read_text_file(dir / "c.json"));
    auto summary = nlohmann::json::parse(read_text_file(dir / "f_summary.json"));
    CHECK(summary["model"]["NormalizeToPawnValue"] == 300);
    CHECK(summary["model"]["momTarget"] == 32);
    // The fit recovers a constant model's pawn value.
    auto fit = run_program("scoreWDL",
                           {"f.json", "--plot", "no", "--NormalizeToPawnValue", "300", "--momType",
                            "move", "--momTarget", "32", "--json", "fit.json"},
                           dir);
    REQUIRE(fit.exit_code == 0);
    auto fitted = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    double error = fitted["model"]["uncertainty"]["NormalizeToPawnValueStandardError"];
    CHECK(std::abs(fitted["model"]["NormalizeToPawnValue"].get<double>() - 300) < 5 * error + 1);
    // Any model spec, e.g. a name of the registry.
    REQUIRE(synth({"-n", "1e4", "-o", "r.json", "--model", "sf17", "--json", "r_summary.json"}, dir)
                .exit_code == 0);
    auto registry = nlohmann::json::parse(read_text_file(dir / "r_summary.json"));
    CHECK(registry["model"]["as"][3] == 420.70576692);
    fs::remove_all(dir);
}

TEST_CASE("synthWDL draws positions like those of a count file", "[apps][synth]") {
    fs::path dir = fresh_directory("synth_from");
    write_text_file(dir / "source.json", R"j({"('W', 30, 40, 100)": 5, "('L', 31, 41, -50)": 5})j");
    REQUIRE(synth({"-n", "1000", "-o", "drawn.json", "--from", "source.json", "--groups", "0"}, dir)
                .exit_code == 0);
    std::set<std::tuple<int, int, int>> shapes;
    wdl::counts::read_count_file(dir / "drawn.json",
                                 [&](const wdl::counts::PositionKey& key, std::int64_t) {
                                     shapes.insert({key.move, key.material, key.eval});
                                 });
    CHECK(shapes == std::set<std::tuple<int, int, int>>{{30, 40, 100}, {31, 41, -50}});
    fs::remove_all(dir);
}

TEST_CASE("synthWDL refuses contradictory options with one error line", "[apps][synth]") {
    fs::path dir = fresh_directory("synth_errors");
    write_text_file(dir / "model.json", R"({"as": [0, 0, 0, 300], "bs": [0, 0, 0, 60]})");
    for (std::vector<std::string> arguments :
         {std::vector<std::string>{"--model", "model.json", "--as", "1,2,3,4", "--bs", "1,2,3,4"},
          {"--as", "1,2,3,4"},
          {"--NormalizeToPawnValue", "300", "--NormalizeData", "{}"},
          {"--model", "missing.json"},
          {"--from", "missing.json"},
          {"-n", "0"},
          {"-n", "1.5"},
          {"--as", "1,2,3"}}) {
        arguments.insert(arguments.end(), {"-o", "x.json"});
        auto run = synth(arguments, dir);
        CAPTURE(arguments, run.output);
        CHECK(run.exit_code != 0);
        CHECK_FALSE(fs::exists(dir / "x.json"));
    }
    fs::remove_all(dir);
}
