#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "rescaled_games.hpp"
#include "test_data.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

const std::string kRescaledTest = "716838bf67ed35143299f7d3";

nlohmann::json run_for_json(const std::string& program, std::vector<std::string> arguments,
                            const fs::path& directory, const std::string& json) {
    arguments.insert(arguments.end(), {"--json", json});
    auto run = run_program(program, arguments, directory);
    INFO(program << ": " << run.output);
    REQUIRE(run.exit_code == 0);
    return nlohmann::json::parse(std::ifstream(directory / json));
}

// The corpus in fishtest's layout with New's evals x1.15 in one test.
fs::path rescaled_corpus(const fs::path& dir) {
    fs::path corpus = dir / "corpus";
    fs::remove_all(corpus);
    fs::copy(corpus_path(), corpus, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
        const auto& path = entry.path();
        if (path.parent_path().filename() != kRescaledTest || path.extension() != ".gz") continue;
        auto text = rescaled_evals(read_decompressed(path), "New-", 1.15, false);
        fs::remove(path);
        std::ofstream(fs::path(path).replace_extension("")) << text;
    }
    return corpus;
}

bool covers(const nlohmann::json& figure, double value) {
    return figure["low"].get<double>() <= value && value <= figure["high"].get<double>();
}

}  // namespace

TEST_CASE("scaleWDL on the bundled games finds no change of scale and writes its JSON and plot",
          "[apps][scale]") {
    fs::path dir = fs::temp_directory_path() / "wdl_test_scaleWDL";
    fs::create_directories(dir);
    auto json = run_for_json("scaleWDL",
                             {"--dir", corpus_path().string(), "-r", "--pool", "all", "--groups",
                              "16", "--concurrency", "2", "--png", (dir / "scale.png").string()},
                             dir, "scale.json");
    CHECK(json["gamesAccepted"] == 798);
    REQUIRE(json["comparisons"].size() == 7);  // six tests and the pool of all
    const auto& pooled = json["comparisons"].back();
    CHECK(pooled["pooled"] == true);
    CHECK(pooled["tests"].size() == 6);
    // Stockfish 15.1 against itself under other names: the same scale.
    REQUIRE(pooled["figures"].size() == 3);
    CHECK(covers(pooled["figures"][0], 1.0));
    CHECK(pooled["figures"][0]["standardError"] < pooled["figures"][0]["unpairedStandardError"]);
    CHECK(pooled["asymmetry"]["new"]["ratio"].is_object());
    // The strength term and the asymmetry net of it, with their intervals: none of it here.
    for (const char* role : {"new", "base"}) CHECK(covers(pooled["asymmetry"][role]["ratio"], 1.0));
    CHECK(covers(pooled["strength"]["elo"], 0.0));
    CHECK(pooled["strength"]["delta"]["low"] < pooled["strength"]["delta"]["high"]);
    CHECK(fs::file_size(dir / "scale.png") > 10000);
    fs::remove_all(dir);
}

TEST_CASE("scaleWDL with no usable game says so and fails", "[apps][scale]") {
    fs::path dir = fs::temp_directory_path() / "wdl_test_scaleWDL_empty";
    fs::create_directories(dir);
    std::ofstream(dir / "broken.pgn")
        << "[White \"A\"]\n[Black \"A\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
    auto run = run_program("scaleWDL", {"--dir", dir.string()}, dir);
    CHECK(run.exit_code != 0);
    CHECK_THAT(run.output, Catch::Contains("none of the 1 games read could be used"));
    fs::remove_all(dir);
}

TEST_CASE("trackWDL --against finds the test whose New evals were scaled, as scaleWDL does",
          "[apps][scale][track]") {
    fs::path dir = fs::temp_directory_path() / "wdl_test_scaleWDL_track";
    fs::create_directories(dir);
    fs::path corpus = rescaled_corpus(dir);
    for (const auto& [engine, file] :
         {std::pair{"New-.*", "new.json"}, std::pair{"Base-.*", "base.json"}}) {
        auto run = run_program("scoreWDLstat",
                               {"--dir", corpus.string(), "-r", "--perTest", "--groups", "8",
                                "--matchEngine", engine, "-o", (dir / file).string()});
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
    }
    auto track = run_for_json("trackWDL",
                              {"new.json", "--against", "base.json", "--by", "test", "--threads",
                               "2", "--png", "track.png"},
                              dir, "track.json");
    auto scale = run_for_json("scaleWDL",
                              {"--dir", corpus.string(), "-r", "--groups", "8", "--noAsymmetry",
                               "--pool", "none", "--concurrency", "2"},
                              dir, "scale.json");
    REQUIRE(track["windows"].size() == 6);
    REQUIRE(scale["comparisons"].size() == 6);
    for (const auto& window : track["windows"]) {
        std::string test = window["tests"][0];
        CAPTURE(test);
        REQUIRE(window["figures"].size() == 3);
        const auto& ratio = window["figures"][0];
        // The same games in the same groups, counted by the scanner with --matchEngine or by
        // scaleWDL's own reading: the same figures.
        for (const auto& comparison : scale["comparisons"]) {
            if (comparison["tests"][0] != test) continue;
            CHECK(ratio["estimate"].get<double>() ==
                  Approx(comparison["figures"][0]["estimate"].get<double>()).epsilon(1e-9));
            CHECK(ratio["high"].get<double>() ==
                  Approx(comparison["figures"][0]["high"].get<double>()).epsilon(1e-9));
        }
        if (test == kRescaledTest) {
            CHECK(window["moved"] == 1);
            CHECK(covers(ratio, 1.15));
        }
    }
    CHECK(fs::file_size(dir / "track.png") > 10000);
    fs::remove_all(dir);
}
