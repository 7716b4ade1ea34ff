#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "test_data.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

// Stockfish 18's model, the default normalization: the truth before the drift.
const std::vector<double> kAs{-72.32565836, 185.93832038, -144.58862193, 416.44950446};
const std::vector<double> kBs{83.86794042, -136.06112997, 69.98820887, 47.62901433};
constexpr double kPawnValue = -72.32565836 + 185.93832038 - 144.58862193 + 416.44950446;
// From the tests of 2024-11-05 on the engine's internal scale is 8 % larger, its displayed
// evals still normalized with the old model.
constexpr double kDrift = 0.08;
const std::string kDriftDate = "2024-11-05";

void require_run(const std::string& program, const std::vector<std::string>& arguments,
                 const fs::path& directory) {
    auto run = run_program(program, arguments, directory);
    INFO(program << ": " << run.output);
    REQUIRE(run.exit_code == 0);
}

std::string numbers(const std::vector<double>& values, double scale) {
    std::string text;
    for (double value : values)
        text += fmt::format("{}{:.10f}", text.empty() ? "" : ",", value * scale);
    return text;
}

// The labelled scan of the bundled corpus: its tests' labels are the synthetic tests'.
nlohmann::json corpus_labels(const fs::path& dir) {
    require_run("scoreWDLstat",
                {"--dir", "data", "-r", "--perTest", "-o", (dir / "per_test.json").string()},
                source_directory());
    return wdl::testing::grouped_file_header(dir / "per_test.json")["labels"]["units"];
}

// A test of the corpus drawn again from the true model of its date, with its label; returns
// the file.
fs::path draw_test(const nlohmann::json& label, const fs::path& dir, std::uint64_t seed) {
    std::string date = label["date"];
    double scale = date >= kDriftDate ? 1 + kDrift : 1;
    std::string id = label["id"];
    fs::path file = dir / (id + ".json");
    auto run = run_program_line(
        "synthWDL",
        fmt::format("-n 2e5 --games --groups 8 --seed {} --as {} --bs {} --threads 1 -o {} "
                    "--label id={} date={} new={} base={} tc={}",
                    seed, numbers(kAs, scale), numbers(kBs, scale), file.filename().string(), id,
                    date, std::string(label["new"]), std::string(label["base"]),
                    std::string(label["tc"])),
        dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    return file;
}

}  // namespace

TEST_CASE("trackWDL recovers a known drift, its size and its date, within its intervals",
          "[apps][track]") {
    auto dir = fresh_directory("track_drift");
    auto labels = corpus_labels(dir);
    REQUIRE(labels.size() == 6);
    std::vector<std::string> merge_arguments, before_drift;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        merge_arguments.push_back(draw_test(labels[i], dir, 11 + i).string());
        if (std::string(labels[i]["date"]) < kDriftDate)
            before_drift.push_back(merge_arguments.back());
    }
    merge_arguments.insert(merge_arguments.end(), {"-o", (dir / "corpus.json").string()});
    require_run("mergeWDLstat", merge_arguments, dir);

    auto run = run_program("trackWDL",
                           {"corpus.json", "--by", "month", "--json", "track.json", "--csv",
                            "track.csv", "--threads", "2"},
                           dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    auto track = nlohmann::json::parse(read_text_file(dir / "track.json"));
    const auto& windows = track["windows"];
    REQUIRE(windows.size() == 6);
    CHECK(track["reference"]["name"] == "sf18");
    CHECK(double(track["reference"]["NormalizeToPawnValue"]) == Approx(kPawnValue));
    for (const auto& window : windows) {
        INFO(window.dump());
        bool drifted = std::string(window["firstDate"]) >= kDriftDate;
        double truth = kPawnValue * (drifted ? 1 + kDrift : 1);
        const auto& pawn = window["estimates"]["NormalizeToPawnValue"];
        CHECK(double(pawn["low"]) <= truth);
        CHECK(double(pawn["high"]) >= truth);
        CHECK(window["departs"] == (drifted ? 1 : 0));
    }
    REQUIRE(track["drift"].is_object());
    CHECK(track["drift"]["since"] == kDriftDate);
    CHECK(double(track["drift"]["low"]) <= kDrift * kPawnValue);
    CHECK(double(track["drift"]["high"]) >= kDrift * kPawnValue);
    CHECK_THAT(std::string(track["verdict"]),
               Catch::StartsWith("The scale has drifted by +") && Catch::Contains(kDriftDate));
    CHECK_THAT(run.output, Catch::Contains("The scale has drifted by +"));
    CHECK(lines_of(read_text_file(dir / "track.csv")).size() == 7);

    // The tests before the drift alone: no drift.
    before_drift.insert(before_drift.end(), {"-o", (dir / "before.json").string()});
    require_run("mergeWDLstat", before_drift, dir);
    auto before = run_program("trackWDL", {"before.json", "--by", "test"}, dir);
    INFO(before.output);
    REQUIRE(before.exit_code == 0);
    CHECK_THAT(before.output, Catch::Contains("No drift beyond noise"));
}

// The bundled corpus scanned per test with one group each: no window has an interval, and a
// window whose fit its data do not determine has no fit; the verdict says there is none.
TEST_CASE("trackWDL without any interval gives no verdict on drift", "[apps][track]") {
    auto dir = fresh_directory("track_no_interval");
    corpus_labels(dir);
    auto run =
        run_program("trackWDL", {"per_test.json", "--by", "test", "--json", "track.json"}, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("No verdict on drift: no window has an interval"));
    CHECK_THAT(run.output, !Catch::Contains("the last window with an interval"));
    auto track = nlohmann::json::parse(read_text_file(dir / "track.json"));
    CHECK(track["drift"].is_null());
    for (const auto& window : track["windows"]) {
        INFO(window.dump());
        CHECK(window["departs"] == 0);
        // A window has a fit its data determine (a positive scale) or says why it has none.
        if (window["noFit"].is_null())
            CHECK(double(window["estimates"]["NormalizeToPawnValue"]["estimate"]) > 0);
        else
            CHECK_THAT(std::string(window["noFit"]),
                       !Catch::StartsWith("the fit did not converge"));
    }
}
