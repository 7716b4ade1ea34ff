#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "program_runner.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

ProgramRun compare(const std::vector<std::string>& arguments, const fs::path& directory) {
    return run_program("compareWDL", arguments, directory);
}

// Lines starting "Error:" in a program's output.
std::size_t error_lines(const std::string& output) {
    std::size_t count = 0;
    for (const auto& line : lines_of(output)) count += line.rfind("Error:", 0) == 0;
    return count;
}

// Draws games from a registry model into a grouped count file (synthWDL).
fs::path draw_games(const fs::path& dir, const std::string& model, int seed) {
    auto file = dir / fmt::format("{}_{}.json", model, seed);
    auto run = run_program("synthWDL",
                           {"-n", "200000", "--model", model, "--games", "--groups", "32", "--seed",
                            std::to_string(seed), "-o", file.string()},
                           dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    return file;
}

// The z of NormalizeToPawnValue's change in a --fit comparison's JSON.
double pawn_value_z(const nlohmann::json& json) {
    const auto& quantity = json["fit"]["quantities"][0];
    REQUIRE(quantity["name"] == "NormalizeToPawnValue");
    return quantity["z"].get<double>();
}

}  // namespace

TEST_CASE("compareWDL compares registry models and writes its plot and JSON",
          "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_registry");
    auto run = compare({"sf16.1", "sf17", "sf18", "--json", "c.json", "--pngName", "c.png"}, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(has_line_with(run.output, "A  sf16.1", "published in sf16.1"));
    CHECK(has_line_with(run.output, "Note: A depends on the move, B on the material", ""));
    CHECK_THAT(run.output, Catch::Contains("Saved graphics to c.png."));
    CHECK(fs::file_size(dir / "c.png") > 10000);
    auto json = nlohmann::json::parse(read_text_file(dir / "c.json"));
    CHECK(json["models"].size() == 3);
    CHECK(json["models"][2]["name"] == "sf18");
    CHECK(json["notes"].size() == 2);
}

TEST_CASE("compareWDL reads a scoreWDL --json model and shows its error band",
          "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_fit");
    nlohmann::json fit = {
        {"model",
         {{"as", {-72.3, 185.9, -144.6, 416.4}},
          {"bs", {83.9, -136.1, 70.0, 47.6}},
          {"momType", "material"},
          {"momTarget", 58},
          {"uncertainty",
           {{"covariance", std::vector<std::vector<double>>(8, std::vector<double>(8, 0.5))}}}}}};
    write_text_file(dir / "fit.json", fit.dump());
    auto run = compare({"sf18", "fit.json", "--plot", "false", "--json", "c.json"}, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    auto json = nlohmann::json::parse(read_text_file(dir / "c.json"));
    // a = (t^3, t^2, t, 1) . as, so its variance is 0.5 * (sum of the gradient)^2; 2 at t = 1.
    CHECK(json["moms"][5]["mom"] == 58);
    CHECK(json["moms"][5]["aError"][1].get<double>() == Approx(std::sqrt(0.5 * 16)));
    CHECK(json["moms"][5]["aError"][0].is_null());
    CHECK_FALSE(fs::exists(dir / "compareWDL.png"));
}

TEST_CASE("compareWDL input errors are one clear line and exit 1", "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_errors");
    write_text_file(dir / "broken.json", "{\"as\": [1, 2, 3]");
    write_text_file(dir / "short.json", "{\"as\": [1], \"bs\": [1, 2, 3, 4]}");
    struct Case {
        std::vector<std::string> arguments;
        const char* expected;
    };
    for (const auto& [arguments, expected] :
         {Case{{"sf17", "sf99"}, "unknown model \"sf99\""},
          Case{{"sf17", "broken.json"}, "broken.json is not valid JSON"},
          Case{{"sf17", "short.json"}, "short.json: \"as\" must hold 2 to 6 numbers"},
          Case{{"sf17", "sf16", "--moms", "30,58"}, "--moms are material values of sf17"},
          Case{{"sf17"}, "at least two models"}}) {
        auto run = compare(arguments, dir);
        CAPTURE(run.output);
        CHECK(run.exit_code == 1);
        CHECK(error_lines(run.output) == 1);
        CHECK_THAT(run.output, Catch::Contains(expected));
        CHECK_FALSE(fs::exists(dir / "compareWDL.png"));
    }
}

TEST_CASE("compareWDL --list shows the registry and how current it is", "[apps][compareWDL]") {
    auto list = compare({"--list"}, scratch_directory());
    REQUIRE(list.exit_code == 0);
    CHECK(has_line_with(list.output, "sf17.1", "2025-03-29"));
    CHECK(has_line_with(list.output, "sf@2024-05-30", "(unreleased)"));
    CHECK(has_line_with(list.output, "the bundled registry", "history up to commit"));
    CHECK(has_line_with(list.output, "are not in it", "--history"));
}

TEST_CASE("compareWDL --history writes a registry that --registry and WDLFIT_REGISTRY use",
          "[apps][compareWDL]") {
    // A clone whose newest model, tagged sf_19, is unknown to the bundled registry.
    auto dir = fresh_directory("compare_history");
    auto clone = dir / "Stockfish";
    fs::create_directories(clone / "src");
    write_text_file(clone / "src/uci.cpp",
                    "double m = std::clamp(material, 17, 78) / 58.0;\n"
                    "constexpr double as[] = {-50.0, 150.0, -120.0, 324.0};\n"
                    "constexpr double bs[] = {80.0, -130.0, 70.0, 45.0};\n");
    std::string git = "git -C '" + clone.string() + "' ";
    std::string identity = "-c user.name=t -c user.email=t@t ";
    REQUIRE(std::system((git + "init -q && " + git + "add -A && " + git + identity +
                         "commit -q -m 'Update the WDL model' && " + git + "tag sf_19")
                            .c_str()) == 0);

    auto walked = compare({"--history", clone.string(), "-o", "registry.json"}, dir);
    INFO(walked.output);
    REQUIRE(walked.exit_code == 0);
    CHECK(has_line_with(walked.output, "sf19", "material"));
    CHECK(has_line_with(walked.output, "Wrote the registry of 1 models", "registry.json"));
    REQUIRE(fs::exists(dir / "registry.json"));

    auto with_file = compare(
        {"--registry", "registry.json", "sf19", "sf", "--plot", "false", "--json", "c.json"}, dir);
    INFO(with_file.output);
    REQUIRE(with_file.exit_code == 0);
    auto json = nlohmann::json::parse(read_text_file(dir / "c.json"));
    CHECK(json["models"][0]["pawnValue"].get<double>() == Approx(304));

    ::setenv("WDLFIT_REGISTRY", (dir / "registry.json").c_str(), 1);
    auto from_environment = compare({"--list"}, dir);
    auto unknown_in_it = compare({"sf18", "sf19"}, dir);
    ::unsetenv("WDLFIT_REGISTRY");
    CHECK(has_line_with(from_environment.output, "sf19", "material"));
    CHECK_FALSE(has_line_with(from_environment.output, "sf18", "2026-01-15"));
    CHECK(unknown_in_it.exit_code == 1);
    CHECK_THAT(unknown_in_it.output, Catch::Contains("unknown model \"sf18\""));

    auto bad = compare({"--registry", "c.json", "--list"}, dir);
    CHECK(bad.exit_code != 0);
    CHECK_THAT(bad.output, Catch::Contains("c.json is not a model registry"));
    auto empty = compare({"--history", dir.string()}, dir);
    CHECK(empty.exit_code == 1);
}

TEST_CASE("a model scored on games drawn from it beats a different model", "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_counts");
    auto games = draw_games(dir, "sf17", 3);
    for (bool true_model_first : {true, false}) {
        std::vector<std::string> models = true_model_first
                                              ? std::vector<std::string>{"sf17", "sf16"}
                                              : std::vector<std::string>{"sf16", "sf17"};
        auto arguments = models;
        arguments.insert(arguments.end(),
                         {"--counts", games.string(), "--plot", "false", "--json", "s.json"});
        auto run = compare(arguments, dir);
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        CHECK_THAT(run.output, Catch::Contains("sf17 predicts these games better than sf16"));
        CHECK_THAT(run.output, Catch::Contains("take the 32 game groups as independent"));
        auto json = nlohmann::json::parse(read_text_file(dir / "s.json"))["counts"];
        CHECK(json["positions"].get<double>() > 100000);
        const auto& second = json["models"][1];
        double difference = second["logLossDifference"].get<double>();
        double error = second["logLossDifferenceError"].get<double>();
        // The second model's log-loss minus the first's: positive when sf17 comes first.
        CHECK((true_model_first ? difference : -difference) > 5 * error);
        CHECK(json["models"][0]["logLossDifference"].get<double>() == 0);
        CHECK_FALSE(json["models"][0]["calibrationByPredictedWin"].empty());
    }
}

TEST_CASE("compareWDL --fit finds a change between models and none between draws of one",
          "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_fit");
    auto first = draw_games(dir, "sf17", 11);
    auto again = draw_games(dir, "sf17", 12);
    auto other = draw_games(dir, "sf16", 13);
    auto fit = [&](const fs::path& old_counts, const fs::path& new_counts) {
        auto run =
            compare({"--fit", old_counts.string(), new_counts.string(), "--json", "f.json"}, dir);
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        CHECK_THAT(run.output, Catch::Contains("errors: jackknife over 32 game groups"));
        return std::make_pair(run.output, nlohmann::json::parse(read_text_file(dir / "f.json")));
    };
    auto [same_text, same] = fit(first, again);
    CHECK(std::abs(pawn_value_z(same)) < 3.5);
    auto [changed_text, changed] = fit(first, other);
    CHECK(std::abs(pawn_value_z(changed)) > 4);
    CHECK_THAT(changed_text, Catch::Contains("the change is significant"));
    CHECK(changed["fit"]["quantities"].size() == 3 + 2 * 6);  // constants, a and b at 6 moms
}

TEST_CASE("compareWDL --counts and --fit input errors are one line and exit 1",
          "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_data_errors");
    write_text_file(dir / "bad.json", R"j({"('W', 12)": 4})j");
    for (const auto& arguments :
         std::vector<std::vector<std::string>>{{"sf17", "--counts", "missing.json"},
                                               {"sf17", "--counts", "bad.json"},
                                               {"--counts", "bad.json"},
                                               {"--fit", "bad.json", "missing.json"}}) {
        auto run = compare(arguments, dir);
        INFO(run.output);
        CHECK(run.exit_code == 1);
        CHECK(error_lines(run.output) == 1);
    }
    // The counts are read before the comparison is printed: the error is all there is.
    auto unreadable = compare({"sf17", "sf18", "--counts", "missing.json"}, dir);
    CHECK(unreadable.exit_code == 1);
    CHECK(unreadable.output ==
          "Error: cannot read the count file missing.json: it does not exist\n");
}

TEST_CASE("a missing model file and a bad WDLFIT_REGISTRY are named as such",
          "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_named_errors");
    auto missing = compare({"sf18", "models/fit.json"}, dir);
    CHECK(missing.exit_code == 1);
    CHECK(missing.output ==
          "Error: unknown model \"models/fit.json\": the file models/fit.json does not exist (a "
          "model is a model JSON file, a Stockfish source tree DIR or DIR@REV, or a registry "
          "name)\n");

    ::setenv("WDLFIT_REGISTRY", "nosuch_registry.json", 1);
    auto from_environment = compare({"sf17", "sf18"}, dir);
    ::unsetenv("WDLFIT_REGISTRY");
    CHECK(from_environment.exit_code == 1);
    CHECK(from_environment.output ==
          "Error: WDLFIT_REGISTRY: cannot read the registry file nosuch_registry.json: it does "
          "not exist (unset it, or name a registry file)\n");
    auto from_option = compare({"--registry", "nosuch_registry.json", "sf17", "sf18"}, dir);
    CHECK(from_option.exit_code == 1);
    CHECK(from_option.output ==
          "Error: --registry: cannot read the registry file nosuch_registry.json: it does not "
          "exist\n");
}

// One bundled test's counts cut to its first 15 moves: too few for the cubic, whose fit does
// not settle. The comparison says so instead of judging a change.
TEST_CASE("compareWDL --fit with a side whose fit is not determined gives no verdict",
          "[apps][compareWDL]") {
    auto dir = fresh_directory("compare_fit_not_determined");
    auto scanned = dir / "test.json";
    auto scan = run_program(
        "scoreWDLstat",
        {"--file",
         corpus_path("24-07-21/716838bf67ed35143299f7d3/716838bf67ed35143299f7d3-1.pgn.gz")
             .string(),
         "-o", scanned.string()},
        dir);
    REQUIRE(scan.exit_code == 0);
    nlohmann::json early = nlohmann::json::object();
    const nlohmann::json counts = read_count_json(scanned);
    for (auto it = counts.begin(); it != counts.end(); ++it) {
        const std::string& key = it.key();
        // "('W', move, material, eval)": the move is the second field.
        auto first = key.find(", ") + 2;
        if (std::stoi(key.substr(first, key.find(',', first) - first)) <= 15)
            early[key] = it.value();
    }
    REQUIRE(early.size() > 1000);
    write_text_file(dir / "early.json", early.dump());
    auto old_counts = draw_games(dir, "sf17", 11);
    auto run = compare({"--fit", old_counts.string(), "early.json", "--json", "f.json"}, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(has_line_with(run.output, "NEW early.json: ", "errors: none: the fit is not determined"));
    CHECK(has_line_with(run.output, "No verdict on the change: the NEW fit is not determined", ""));
    CHECK_THAT(run.output, !Catch::Contains("the change is"));
    auto json = nlohmann::json::parse(read_text_file(dir / "f.json"));
    CHECK(json["fit"]["new"]["model"]["determined"] == false);
    CHECK(json["fit"]["old"]["model"]["determined"] == true);
    CHECK(json["fit"]["quantities"][0]["z"].is_null());
}
