// scoreWDL on grouped counts: the error bars, cross-validation and their checks on data/.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/stats/random.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

// data/ scanned into a count file with these extra options (e.g. "--groups 64").
fs::path scanned(const fs::path& dir, const std::string& name, const std::string& options) {
    auto output = dir / name;
    auto scan = run_program_line(
        "scoreWDLstat",
        "--dir " + corpus_path().string() + " -r -o " + output.string() + " " + options, dir);
    REQUIRE(scan.exit_code == 0);
    return output;
}

// The printed lines up to the fit's own last one.
std::string fit_lines(const std::string& output) {
    std::string lines;
    for (const auto& line : lines_of(output)) {
        if (line.rfind("Reading eval stats from ", 0) == 0) continue;
        lines += line + "\n";
        if (line.rfind("Standard errors: ", 0) == 0) break;
    }
    return lines;
}

}  // namespace

TEST_CASE("grouped counts add error bars after the original's lines", "[apps][scoreWDL][groups]") {
    fs::path dir = fresh_directory("error_bars");
    auto plain = scanned(dir, "plain.json", "");
    auto grouped = scanned(dir, "grouped.json", "--groups 64");
    auto plain_run = run_program_line("scoreWDL", plain.string() + " --plot no", dir);
    auto grouped_run = run_program_line(
        "scoreWDL", grouped.string() + " --plot no --json " + (dir / "fit.json").string(), dir);
    REQUIRE(plain_run.exit_code == 0);
    REQUIRE(grouped_run.exit_code == 0);
    // The same fit, the same lines; the plain input gets no more.
    CHECK(fit_lines(grouped_run.output) == fit_lines(plain_run.output));
    CHECK_THAT(plain_run.output, !Catch::Contains("jackknife"));
    CHECK(has_line_with(grouped_run.output, "NormalizeToPawnValue = ",
                        "jackknife over 64 game groups; design effect "));
    for (const char* name : {"spread = ", "Draw rate at 0.0 eval = ", "as[0] = ", "bs[3] = "})
        CHECK(has_line_with(grouped_run.output, name, "(95 % interval "));
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    auto pawn = json["model"]["resampling"]["estimates"]["NormalizeToPawnValue"];
    CHECK(json["model"]["resampling"]["groups"] == 64);
    CHECK(pawn["interval"][0].get<double>() < json["model"]["NormalizeToPawnValue"].get<double>());
    CHECK(pawn["interval"][1].get<double>() > json["model"]["NormalizeToPawnValue"].get<double>());
    // Games share results: the printed independent-position error is far too small.
    CHECK(pawn["designEffect"].get<double>() > 4);
    CHECK(std::abs(
              std::sqrt(pawn["designEffect"].get<double>()) *
                  json["model"]["uncertainty"]["NormalizeToPawnValueStandardError"].get<double>() -
              pawn["standardError"].get<double>()) < 1e-6 * pawn["standardError"].get<double>());

    auto none = run_program_line("scoreWDL", grouped.string() + " --plot no --resample none", dir);
    CHECK(fit_lines(none.output) == fit_lines(plain_run.output));
    CHECK_THAT(none.output, !Catch::Contains("jackknife"));
    auto bootstrap = run_program_line(
        "scoreWDL", grouped.string() + " --plot no --resample bootstrap --resamples 40", dir);
    CHECK(has_line_with(bootstrap.output,
                        "NormalizeToPawnValue = ", "bootstrap (40 draws) over 64 game groups"));
    fs::remove_all(dir);
}

TEST_CASE("test groups resample whole fishtest tests", "[apps][scoreWDL][groups]") {
    fs::path dir = fresh_directory("error_bars_tests");
    auto grouped = scanned(dir, "tests.json", "--groups 1024 --groupBy test");
    auto result = run_program_line("scoreWDL", grouped.string() + " --plot no", dir);
    REQUIRE(result.exit_code == 0);
    CHECK(has_line_with(result.output, "NormalizeToPawnValue = ", "over 6 test groups"));
    fs::remove_all(dir);
}

TEST_CASE("resampling and cross-validation need grouped counts and a fit",
          "[apps][scoreWDL][groups][errors]") {
    fs::path dir = fresh_directory("error_bars_errors");
    auto plain = scanned(dir, "plain.json", "");
    auto grouped = scanned(dir, "grouped.json", "--groups 8");
    for (const std::string options :
         {" --resample jackknife", " --crossValidate", " --selectModel"}) {
        auto result = run_program_line("scoreWDL", plain.string() + " --plot no" + options, dir);
        CAPTURE(options, result.output);
        CHECK(result.exit_code == 1);
        CHECK(has_line_with(result.output, "Error: ", plain.string() + " has no groups"));
        CHECK_THAT(result.output, !Catch::Contains("constexpr double as[]"));
    }
    auto none = run_program_line(
        "scoreWDL", grouped.string() + " --plot no --crossValidate --modelFitting None", dir);
    CHECK(none.exit_code == 1);
    CHECK_THAT(none.output, Catch::Contains("need a fit"));
    // Mixed inputs are fitted together; their error bars would need the same groups in both.
    auto mixed =
        run_program_line("scoreWDL", grouped.string() + " " + plain.string() + " --plot no", dir);
    CHECK(mixed.exit_code == 0);
    CHECK_THAT(mixed.output, Catch::Contains("constexpr double as[]"));
    CHECK_THAT(mixed.output, !Catch::Contains("jackknife"));
    fs::remove_all(dir);
}

TEST_CASE("cross-validation scores the fit, the engine's model and the baseline",
          "[apps][scoreWDL][groups]") {
    fs::path dir = fresh_directory("cross_validation");
    auto grouped = scanned(dir, "grouped.json", "--groups 32");
    std::string normalize_data = R"({"momType":"material","momMin":17,"momMax":78,"momTarget":58,)"
                                 R"("as":[-72.32565836,185.93832038,-144.58862193,416.44950446],)"
                                 R"("bs":[83.86794042,-136.06112997,69.98820887,47.62901433]})";
    auto png = dir / "fit.png";
    auto result = run_program(
        "scoreWDL",
        {grouped.string(), "--plot", "save", "--pngName", png.string(), "--crossValidate",
         "--folds", "8", "--NormalizeData", normalize_data, "--json", (dir / "fit.json").string()},
        dir);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("Cross-validation over 8 folds of 32 game groups"));
    CHECK(has_line_with(result.output, "fitted (optimizeProbability)", " +- "));
    CHECK(has_line_with(result.output, "NormalizeData (as, bs)", " +- "));
    CHECK(has_line_with(result.output, "baseline (cp only)", " +- "));
    CHECK(has_line_with(result.output, "Saved calibration plot to ", "fit_calibration.png"));
    CHECK(fs::file_size(dir / "fit_calibration.png") > 1000);
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    const auto& validation = json["crossValidation"];
    CHECK(validation["folds"] == 8);
    REQUIRE(validation["models"].size() == 3);
    for (const auto& model : validation["models"]) {
        CHECK(model["logLoss"].get<double>() > 0);
        CHECK(model["calibration"]["byPredictedWin"].size() >= 5);
        CHECK(model["calibration"]["byMaterial"].size() >= 5);
    }
    // On real games the fitted cubic beats the one-parameter baseline.
    CHECK(validation["models"][2]["logLossMinusFitted"].get<double>() >
          3 * validation["models"][2]["logLossMinusFittedStandardError"].get<double>());
    // A named model is the engine's model as well as the normalization.
    auto named = run_program("scoreWDL",
                             {grouped.string(), "--plot", "no", "--crossValidate", "--folds", "8",
                              "--NormalizeData", "sf18", "--json", (dir / "named.json").string()},
                             dir);
    REQUIRE(named.exit_code == 0);
    auto named_json = nlohmann::json::parse(read_text_file(dir / "named.json"));
    CHECK(named_json["crossValidation"]["models"][1]["logLoss"] ==
          validation["models"][1]["logLoss"]);
    fs::remove_all(dir);
}

TEST_CASE("model selection on data/ prints its table, verdict, plot and JSON",
          "[apps][scoreWDL][groups][selection]") {
    fs::path dir = fresh_directory("model_selection");
    auto grouped = scanned(dir, "grouped.json", "--groups 32");
    auto png = dir / "fit.png";
    auto result =
        run_program("scoreWDL",
                    {grouped.string(), "--plot", "save", "--pngName", png.string(), "--selectModel",
                     "--forms", "poly3/poly3,poly2/poly2,poly1/poly1,rational1/poly3", "--folds",
                     "8", "--json", (dir / "fit.json").string()},
                    dir);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("Model selection: 4 forms of p_a/p_b") &&
                                  Catch::Contains("8 folds of 32 game groups"));
    for (const char* form : {"poly3/poly3", "poly2/poly2", "poly1/poly1", "rational1/poly3"})
        CHECK(has_line_with(result.output, form, " +- "));
    CHECK(has_line_with(result.output, "Stockfish's form poly3/poly3 against the best",
                        "standard errors"));
    CHECK(has_line_with(result.output, "Saved model selection plot to ", "fit_selection.png"));
    CHECK(fs::file_size(dir / "fit_selection.png") > 1000);
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    const auto& selection = json["modelSelection"];
    CHECK(selection["folds"] == 8);
    REQUIRE(selection["forms"].size() == 4);
    CHECK(selection["forms"][0]["form"] == "poly3/poly3");
    CHECK(selection["forms"][0]["minusCubic"] == 0);
    CHECK(has_line_with(result.output, selection["chosen"].get<std::string>() + " *", " +- "));
    auto bad = run_program_line("scoreWDL",
                                grouped.string() + " --plot no --selectModel --forms poly3", dir);
    CHECK(bad.exit_code != 0);
    CHECK_THAT(bad.output, Catch::Contains("no A/B form pair"));
    fs::remove_all(dir);
}

TEST_CASE("time controls compared on held-out games, one model against a b per file",
          "[apps][scoreWDL][groups][sources]") {
    fs::path dir = fresh_directory("compare_files");
    auto stc = scanned(dir, "stc.json", "--groups 32 --matchTC 10\\+0\\.1");
    auto ltc = scanned(dir, "ltc.json", "--groups 32 --matchTC 60\\+0\\.6");
    auto result = run_program("scoreWDL",
                              {stc.string(), ltc.string(), "--plot", "no", "--compareFiles",
                               "--folds", "8", "--json", (dir / "fit.json").string()},
                              dir);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK(has_line_with(result.output, "Sources compared: stc.json", "ltc.json"));
    for (const char* kind : {"pooled ", "b per source ", "model per source "})
        CHECK(has_line_with(result.output, kind, " +- "));
    CHECK(has_line_with(result.output, "A b(m) per source against one model for all",
                        "standard errors"));
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    REQUIRE(json["compareFiles"]["models"].size() == 3);
    CHECK(json["compareFiles"]["sourcePositions"][0].get<double>() > 0);
    auto one = run_program_line("scoreWDL", stc.string() + " --plot no --compareFiles", dir);
    CHECK(one.exit_code == 1);
    CHECK_THAT(one.output, Catch::Contains("at least 2 count files"));
    fs::remove_all(dir);
}

// The issue's measurement: split the games of data/ into random halves 30 times, fit each half,
// and take the standard deviation of (A - B) / 2, an estimate of the full fit's standard error
// that assumes nothing of the positions. The jackknife over 64 game groups must agree within
// the sampling errors of both (1 / sqrt(2 * 29) and 1 / sqrt(2 * 63) relative).
TEST_CASE("random halves of data/'s games confirm the jackknife's standard error",
          "[apps][scoreWDL][groups]") {
    fs::path dir = fresh_directory("random_halves");
    auto groups64 = scanned(dir, "g64.json", "--groups 64");
    auto fit_run = run_program_line(
        "scoreWDL", groups64.string() + " --plot no --json " + (dir / "fit.json").string(), dir);
    REQUIRE(fit_run.exit_code == 0);
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    double jackknife =
        json["model"]["resampling"]["estimates"]["NormalizeToPawnValue"]["standardError"];
    double fisher = json["model"]["uncertainty"]["NormalizeToPawnValueStandardError"];

    // 65536 groups: nearly every game alone in its group.
    auto games = scanned(dir, "games.json", "--groups 65536");
    auto normalization = wdl::model::Normalization::from_json(wdl::model::kDefaultNormalizeData);
    wdl::fit::CountGrid grid(wdl::fit::GridFilter{}, normalization, true);
    wdl::counts::read_count_file(games, grid);
    wdl::fit::GroupedData data(grid);
    REQUIRE(data.group_count() > 780);
    wdl::fit::FitOptions options;  // optimizeProbability of material, target 58, winMin 10
    options.pawn_value = normalization.pawn_value();
    auto full = wdl::fit::fit_model(data.total(), options);
    std::vector<std::vector<double>> weights;
    wdl::stats::Random random(2024);
    for (int split = 0; split < 30; ++split) {
        std::vector<std::size_t> order(data.group_count());
        std::iota(order.begin(), order.end(), 0);
        for (std::size_t i = order.size() - 1; i > 0; --i)
            std::swap(order[i], order[random.below(i + 1)]);
        std::vector<double> half(data.group_count(), 0.0);
        for (std::size_t i = 0; i < order.size() / 2; ++i) half[order[i]] = 1;
        weights.push_back(half);
        for (double& w : half) w = 1 - w;
        weights.push_back(half);
    }
    auto refits = wdl::fit::refit_weighted(data, options, full.model, weights, 2);
    std::vector<double> differences;
    for (std::size_t i = 0; i < refits.size(); i += 2) {
        REQUIRE(refits[i].minimization.converged);
        REQUIRE(refits[i + 1].minimization.converged);
        differences.push_back((wdl::model::curve_at_target({}, refits[i].model.as) -
                               wdl::model::curve_at_target({}, refits[i + 1].model.as)) /
                              2);
    }
    double empirical = std::sqrt(wdl::stats::sample_variance(differences));
    double tolerance = 2 * std::sqrt(1.0 / (2 * 29) + 1.0 / (2 * 63));
    INFO("random halves " << empirical << ", jackknife " << jackknife << ", Fisher " << fisher);
    CHECK(std::abs(jackknife - empirical) < tolerance * empirical);
    CHECK(fisher < empirical / 2);
    fs::remove_all(dir);
}
