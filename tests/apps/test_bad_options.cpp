// Numeric options out of their range, in every program: each is refused before any work with
// exit status 1 and one error line naming the option (docs/programs.md), never a crash or a
// silently wrong run. And --NormalizeData models whose a(mom) is not positive where counts are
// read, refused by the library for every program that normalizes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

struct BadOption {
    std::string program;
    std::string arguments;  // as run_program_line takes them, in a folder with in.json, in.pgn
    std::string option;     // the option the error must name
};

// Programs without a numeric option: nothing to refuse.
const std::set<std::string> kWithoutNumbers = {"exportWDL"};

const std::vector<BadOption>& bad_options() {
    static const std::vector<BadOption> table = {
        {"scoreWDLstat", "--file in.pgn --NormalizeToPawnValue 0", "--NormalizeToPawnValue"},
        {"scoreWDLstat", "--file in.pgn --NormalizeToPawnValue -1", "--NormalizeToPawnValue"},
        {"scoreWDLstat", "--file in.pgn --concurrency 0", "--concurrency"},
        {"scoreWDLstat", "--file in.pgn --groups -1", "--groups"},
        {"scoreWDLstat", "--file in.pgn --groups 0", "--groups"},
        {"scoreWDLstat", "--file in.pgn --binWidth 0", "--binWidth"},
        {"scoreWDLstat", "--file in.pgn --matchThreads 0", "--matchThreads"},
        {"scoreWDLstat", "--file in.pgn --EloDiffMax nan", "--EloDiffMax"},
        {"mergeWDLstat", "in.json --binWidth 0", "--binWidth"},
        {"mergeWDLstat", "in.json --binWidth -5", "--binWidth"},
        {"synthWDL", "--threads 0", "--threads"},
        {"synthWDL", "--groups -1", "--groups"},
        {"synthWDL", "--NormalizeToPawnValue 0", "--NormalizeToPawnValue"},
        {"synthWDL", "--positionsPerGame 0", "--positionsPerGame"},
        {"synthWDL", "--positions 0", "--positions"},
        {"synthWDL", "--as 1,2,nan,4 --bs 1,2,3,4", "--as"},
        {"synthWDL", "--binWidth -1", "--binWidth"},
        {"synthWDL", "--seed -1", "--seed"},
        {"annotateWDL", "in.pgn --moveThresholds 0.1,0.2,1.5", "--moveThresholds"},
        {"annotateWDL", "in.pgn --moveThresholds -0.1,0.2,0.3", "--moveThresholds"},
        {"annotateWDL", "in.pgn --NormalizeToPawnValue -1", "--NormalizeToPawnValue"},
        {"queryWDL", "--winRate 1.5", "--winRate"},
        {"queryWDL", "--winRate 0", "--winRate"},
        {"queryWDL", "--materials -1", "--materials"},
        {"queryWDL", "--moves 0", "--moves"},
        {"queryWDL", "--evals inf", "--evals"},
        {"queryWDL", "--elo 1500,nan --tc 600+5", "--elo"},
        {"humanWDL", "in.json --folds 1", "--folds"},
        {"humanWDL", "in.json --confidence 1.5", "--confidence"},
        {"humanWDL", "in.json --concurrency 0", "--concurrency"},
        {"scoreWDL", "in.json --NormalizeToPawnValue 0", "--NormalizeToPawnValue"},
        {"scoreWDL", "in.json --NormalizeToPawnValue -328", "--NormalizeToPawnValue"},
        {"scoreWDL", "in.json --moveMin 0", "--moveMin"},
        {"scoreWDL", "in.json --materialMin -1", "--materialMin"},
        {"scoreWDL", "in.json --materialMax 100000", "--materialMax"},
        {"scoreWDL", "in.json --moveMin 50 --moveMax 40", "--moveMin"},
        {"scoreWDL", "in.json --evalMax 0", "--evalMax"},
        {"scoreWDL", "in.json --winMin -1", "--winMin"},
        {"scoreWDL", "in.json --momTarget 0", "--momTarget"},
        {"scoreWDL", "in.json --folds 1", "--folds"},
        {"scoreWDL", "in.json --resamples 1", "--resamples"},
        {"scoreWDL", "in.json --momCut 0", "--momCut"},
        {"scoreWDL", "in.json --momPlotMin -1", "--momPlotMin"},
        {"compareWDL", "sf18 sf17 --threads 0", "--threads"},
        {"compareWDL", "sf18 sf17 --momTarget 0", "--momTarget"},
        {"compareWDL", "sf18 sf17 --NormalizeToPawnValue -1", "--NormalizeToPawnValue"},
        {"compareWDL", "sf18 sf17 --moms -5", "--moms"},
        {"compareWDL", "sf18 sf17 --evals nan", "--evals"},
        {"markovWDL", "--file in.pgn --concurrency 0", "--concurrency"},
        {"markovWDL", "--file in.pgn --classCount 2", "--classCount"},
        {"markovWDL", "--file in.pgn --matchThreads -1", "--matchThreads"},
        {"markovWDL", "--file in.pgn --classes 0,-1", "--classes"},
        {"trackWDL", "in.json --threads 0", "--threads"},
        {"trackWDL", "in.json --every 0", "--every"},
        {"trackWDL", "in.json --confidence 1.5", "--confidence"},
        {"trackWDL", "in.json --resamples 1", "--resamples"},
        {"trackWDL", "in.json --NormalizeToPawnValue 0", "--NormalizeToPawnValue"},
        {"trackWDL", "in.json --moms 0", "--moms"},
        {"scaleWDL", "--file in.pgn --groups 1", "--groups"},
        {"scaleWDL", "--file in.pgn --confidence 1.5", "--confidence"},
        {"scaleWDL", "--file in.pgn --concurrency 0", "--concurrency"},
        {"scaleWDL", "--file in.pgn --folds 1", "--folds"},
        {"scaleWDL", "--file in.pgn --NormalizeToPawnValue 0", "--NormalizeToPawnValue"},
        {"scaleWDL", "--file in.pgn --evalMax -1", "--evalMax"},
        {"download_fishtest_pgns", "--time_delta -1", "--time_delta"},
        {"download_fishtest_pgns", "--retries -1", "--retries"},
        {"download_fishtest_pgns", "--timeout 0", "--timeout"},
        {"download_fishtest_pgns", "--pause -1", "--pause"},
        {"download_fishtest_pgns", "--tc_lower_limit -1", "--tc_lower_limit"},
        {"download_fishtest_pgns", "--archive --jobs 0", "--jobs"},
        {"download_fishtest_pgns", "--archive --jobs 65", "--jobs"},
        {"download_fishtest_pgns", "--jobs 2", "--jobs"},
        {"download_fishtest_pgns", "--archive --time_delta 24", "--time_delta"},
        {"archiveWDL", "--dates 25-* --batch_size 0", "--batch_size"},
        {"archiveWDL", "--dates 25-* --batch_size nan", "--batch_size"},
        {"archiveWDL", "--dates 25-* --jobs 0", "--jobs"},
        {"archiveWDL", "--dates 25-* --groups 0", "--groups"},
        {"archiveWDL", "--dates 25-* --concurrency 0", "--concurrency"},
        {"archiveWDL", "--dates 25-* --tc_upper_limit -1", "--tc_upper_limit"},
        {"archiveWDL", "--dates 25-* --EloDiffMax inf", "--EloDiffMax"},
        {"archiveWDL", "--dates 25-* --moveMin 0", "--moveMin"},
        {"archiveWDL", "--dates 25-* --retries -1", "--retries"},
        {"download_missing_metadata", "--retries -1", "--retries"},
        {"download_missing_metadata", "--timeout 0", "--timeout"},
        {"generateTables", "--threads 0", "--threads"},
        {"scoreCompetence", "--file in.pgn --kappa 0", "--kappa"},
        {"scoreCompetence", "--file in.pgn --cstep 0", "--cstep"},
        {"scoreCompetence", "--file in.pgn --cmin -1", "--cmin"},
        {"scoreCompetence", "--file in.pgn --cmin 5 --cmax 1", "--cmax"},
        {"scoreCompetence", "--file in.pgn --concurrency 0", "--concurrency"},
    };
    return table;
}

std::vector<std::string> built_programs() {
    std::vector<std::string> names;
    std::istringstream in(WDL_PROGRAMS);
    for (std::string name; std::getline(in, name, ',');) names.push_back(name);
    return names;
}

// A folder with the files the table's arguments name: the options are refused before either
// is read, but a program that needs an existing input (trackWDL) gets one.
fs::path folder_with_inputs() {
    auto dir = fresh_directory("bad_options");
    write_text_file(dir / "in.json", "{}\n");
    write_text_file(dir / "in.pgn", "");
    return dir;
}

// Neither a crash (exit_code -1) nor success: status 1 and an error line naming the option.
void check_refused(const ProgramRun& run, const std::string& option) {
    INFO(run.output);
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.output, Catch::Contains("Error: "));
    CHECK_THAT(run.output, Catch::Contains(option));
}

}  // namespace

TEST_CASE("every program refuses a numeric option out of its range, naming it", "[apps][options]") {
    auto programs = built_programs();
    auto dir = folder_with_inputs();
    for (const auto& bad : bad_options()) {
        if (std::find(programs.begin(), programs.end(), bad.program) == programs.end())
            continue;  // its component is not in this build
        INFO(bad.program << " " << bad.arguments);
        check_refused(run_program_line(bad.program, bad.arguments, dir), bad.option);
    }
}

TEST_CASE("the table of bad options covers every program with numeric options", "[apps][options]") {
    std::set<std::string> covered;
    for (const auto& bad : bad_options()) covered.insert(bad.program);
    for (const auto& program : built_programs()) {
        INFO(program);
        CHECK((covered.count(program) == 1 || kWithoutNumbers.count(program) == 1));
    }
}

TEST_CASE("scoreWDLstat refuses --NormalizeToPawnValue 0 for bullet data instead of crashing",
          "[apps][options][training]") {
    auto dir = fresh_directory("bad_options_bullet");
    auto bullet = test_data_path("training/games.bullet.txt.gz").string();
    for (const char* value : {"0", "-1", "-328"}) {
        INFO(value);
        auto run = run_program_line(
            "scoreWDLstat",
            "--file " + bullet + " --format bullet --NormalizeToPawnValue " + value + " -o c.json",
            dir);
        check_refused(run, "--NormalizeToPawnValue");
        CHECK(!fs::exists(dir / "c.json"));
    }
    // What it found is training data, and the line says so.
    auto good = run_program_line(
        "scoreWDLstat", "--file " + bullet + " --format bullet --NormalizeToPawnValue 100", dir);
    INFO(good.output);
    REQUIRE(good.exit_code == 0);
    CHECK_THAT(good.output, Catch::Contains("Found 1 file of training data in total."));
    CHECK_THAT(good.output, !Catch::Contains(".pgn(.gz)"));
}

TEST_CASE("a --NormalizeData model whose a(mom) is not positive over its clamp is refused",
          "[apps][options][normalization]") {
    auto dir = fresh_directory("bad_options_normalize_data");
    // a(t) = 400 t - 200: 200 at the target material 58, negative below material 29.
    write_text_file(dir / "bad_model.json",
                    R"({"momType": "material", "momMin": 17, "momMax": 78, "momTarget": 58, )"
                    R"("as": [0, 0, 400, -200], "bs": [0, 0, 0, 60]})"
                    "\n");
    auto bullet = test_data_path("training/games.bullet.txt.gz").string();
    auto scan = run_program_line(
        "scoreWDLstat", "--file " + bullet + " --format bullet --NormalizeData bad_model.json",
        dir);
    check_refused(scan, "bad_model.json");
    CHECK_THAT(scan.output, Catch::Contains("not positive"));

    // Given as JSON on the command line, the error names the option.
    auto inline_json = run_program(
        "scoreWDLstat",
        {"--file", bullet, "--format", "bullet", "--NormalizeData",
         R"({"momType": "material", "momMin": 17, "momMax": 78, "momTarget": 58, "as": [0, 0, 0, 0]})"},
        dir);
    check_refused(inline_json, "--NormalizeData");
    CHECK_THAT(inline_json.output, Catch::Contains("not positive"));
}
