// scoreWDL --report on the bundled games: every section, its numbers those of the fit, and the
// HTML as a real browser (headless Chromium, no network) shows it.
#include <fmt/format.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "program_runner.hpp"
#include "skip.hpp"
#include "test_data.hpp"
#include "wdl/model/model_lookup.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

// data/ scanned with --json summary.json and these extra options into counts.json.
void scan(const fs::path& dir, const std::string& options) {
    auto scanned = run_program_line(
        "scoreWDLstat",
        "--dir " + corpus_path().string() + " -r -o counts.json --json summary.json " + options,
        dir);
    REQUIRE(scanned.exit_code == 0);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::size_t count_of(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
    return count;
}

const std::vector<std::string> kSections{"## The run",
                                         "## Verdict",
                                         "## Display mapping, old to new",
                                         "## W/D/L at displayed evals",
                                         "## Held-out scores",
                                         "## The data",
                                         "## Plots"};

// The grouped report against sf17 that the tests below read, made once per test process.
struct GroupedReport {
    fs::path dir;
    ProgramRun fit;
};

GroupedReport grouped_report(const std::string& name) {
    fs::path dir = fresh_directory(name);
    scan(dir, "--groups 16");
    write_text_file(dir / "update.log", "Running: updateWDL.sh --lastrev HEAD\n");
    auto fit =
        run_program_line("scoreWDL",
                         "counts.json --plot no --NormalizeData sf17 --oldModel sf17 --report out "
                         "--scanSummary summary.json --updateLog update.log --json fit.json "
                         "--revisionRange abc..def",
                         dir);
    REQUIRE(fit.exit_code == 0);
    return {dir, fit};
}

// The PNG's width and height from its IHDR chunk.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& png) {
    REQUIRE(png.size() > 24);
    REQUIRE(png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) == 0);
    auto word = [&](std::size_t at) {
        std::uint32_t value = 0;
        for (std::size_t i = 0; i < 4; ++i) value = value << 8 | std::uint8_t(png[at + i]);
        return value;
    };
    return {word(16), word(20)};
}

fs::path find_chromium() {
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "");
    for (std::string folder; std::getline(folders, folder, ':');) {
        for (const char* name : {"chromium", "chromium-browser"}) {
            fs::path candidate = fs::path(folder) / name;
            if (fs::exists(candidate)) return candidate;
        }
    }
    return {};
}

}  // namespace

TEST_CASE("scoreWDL --report writes every section with the fit's numbers", "[apps][report]") {
    auto [dir, fit] = grouped_report("report_sections");
    CHECK(contains(fit.output, "Wrote report.md and report.html to out."));
    auto markdown = read_text_file(dir / "out" / "report.md");
    for (const auto& section : kSections) CHECK(contains(markdown, "\n" + section + "\n"));
    // Every section names what reproduces it.
    CHECK(count_of(markdown, "\nReproduce: ") == kSections.size());
    // The lines quoted: updateWDL.sh's from --updateLog, and scoreWDL's own.
    CHECK(contains(markdown, "Running: updateWDL.sh --lastrev HEAD\n"));
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    int pawn = json["model"]["NormalizeToPawnValue"];
    CHECK(contains(markdown, fmt::format("const int NormalizeToPawnValue = {};\n", pawn)));
    CHECK(contains(markdown, "Cross-validation over 10 folds of 16 game groups"));
    // The report's fit.json is the --json document.
    CHECK(read_text_file(dir / "out" / "fit.json") == read_text_file(dir / "fit.json"));

    // The verdict: sf17's pawn value (sum of its as, 371.66, rounded) against the jackknife's
    // interval.
    auto sf17 = wdl::model::load_model("sf17").model;
    int old_pawn = int(sf17.pawn_value());
    CHECK(old_pawn == 372);
    const auto& estimate = json["model"]["resampling"]["estimates"]["NormalizeToPawnValue"];
    double low = estimate["interval"][0], high = estimate["interval"][1];
    bool inside = low <= old_pawn && old_pawn <= high;
    CHECK(contains(markdown,
                   fmt::format("The old value {} lies {} the 95 % interval {:.0f} .. {:.0f} of the "
                               "fitted value {:.1f} (+- {:.1f})",
                               old_pawn, inside ? "inside" : "outside", low, high,
                               double(estimate["estimate"]), double(estimate["standardError"]))));
    CHECK(contains(markdown, "jackknife over 16 game groups"));
    CHECK(contains(markdown, fmt::format("NormalizeToPawnValue should change from {} to {}.",
                                         old_pawn, pawn)));

    // The display mapping: an eval sf17 displays as 100cp at material 58 is a(58) of sf17
    // internally, which the fit displays as 100 a_old / a_new.
    auto as = json["model"]["as"].get<std::vector<double>>();
    double new_a = as[0] + as[1] + as[2] + as[3];
    double old_a = sf17.a(58);
    CHECK(
        contains(markdown, fmt::format("| 58 | {:.0f} | {:.0f} | {:.0f} | {:.0f} | {:.0f} |",
                                       50 * old_a / new_a, 100 * old_a / new_a, 150 * old_a / new_a,
                                       200 * old_a / new_a, 300 * old_a / new_a)));
    CHECK(
        contains(markdown, fmt::format("In the updated WDL model, {}cp would roughly map to 100cp",
                                       100 * pawn / old_pawn)));
    // W/D/L: both models win half at a displayed 1.00.
    CHECK(count_of(markdown, "| +1.00 | 500/") == 2);

    // Held-out scores of the fit and of the old model, with the paired difference.
    const auto& models = json["crossValidation"]["models"];
    REQUIRE(models.size() == 3);
    CHECK(models[1]["name"] == "NormalizeData");
    CHECK(contains(markdown, fmt::format("| old model (as, bs) | {:.5f} +- {:.5f} |",
                                         double(models[1]["logLoss"]),
                                         double(models[1]["logLossStandardError"]))));

    // The data: the scan's figures, the revisions and the count file's CRC-32.
    CHECK(contains(markdown, "| tests | 6 |"));
    CHECK(contains(markdown, "| games read | 800 |"));
    CHECK(contains(markdown, "| games accepted | 798 |"));
    // The reasons' rows add up to the 2 games skipped; the one lost on time is one of them.
    CHECK(contains(markdown,
                   "| games skipped: excluded termination | 1 |\n"
                   "| games skipped: excluded termination, of which lost on time | 1 |\n"
                   "| games skipped: no decisive or drawn result | 1 |\n"));
    CHECK(contains(markdown, "| games accepted: adjudicated | 662 |"));
    CHECK(contains(markdown, "Stockfish revisions: abc..def."));
    auto counts = read_text_file(dir / "counts.json");
    auto crc = crc32(0L, reinterpret_cast<const Bytef*>(counts.data()), uInt(counts.size()));
    CHECK(contains(markdown, fmt::format("| `counts.json` | {:08x} |", crc)));

    // The plots: files beside report.md, embedded in report.html.
    auto html = read_text_file(dir / "out" / "report.html");
    for (const char* png : {"fit.png", "old_vs_new.png", "calibration.png"}) {
        CHECK(contains(markdown, fmt::format("]({})", png)));
        CHECK(fs::file_size(dir / "out" / png) > 10000);
        CHECK_FALSE(contains(html, fmt::format("src=\"{}\"", png)));
    }
    CHECK(count_of(html, "src=\"data:image/png;base64,") == 3);

    // The fit itself as the old model: every eval displayed as before, and scored.
    auto refit = run_program_line(
        "scoreWDL", "counts.json --plot no --NormalizeData sf17 --oldModel fit.json --report same",
        dir);
    REQUIRE(refit.exit_code == 0);
    auto same = read_text_file(dir / "same" / "report.md");
    CHECK(contains(same, "| 58 | 50 | 100 | 150 | 200 | 300 |"));
    CHECK(contains(same, "| old model (as, bs) |"));
    // A model of plies: its displays do not correspond by material. Stockfish 16 displayed by a
    // constant (328), so the games' evals convert and it is scored.
    auto plies =
        run_program_line("scoreWDL", "counts.json --plot no --oldModel sf16 --report plies", dir);
    REQUIRE(plies.exit_code == 0);
    auto ply_report = read_text_file(dir / "plies" / "report.md");
    CHECK(contains(ply_report, "| ply | old 50cp |"));
    CHECK(contains(ply_report, "| 58 | - | - | - | - | - |"));
    CHECK(contains(ply_report, "Note: "));
    CHECK(contains(ply_report, "at the old model's ply 64:"));
    CHECK_FALSE(contains(ply_report, "The old model is not scored"));
    CHECK(contains(ply_report, "| old model (as, bs) |"));
}

TEST_CASE("scoreWDL --report without an old model or groups says what is missing",
          "[apps][report]") {
    fs::path dir = fresh_directory("report_missing");
    scan(dir, "");
    // The default --NormalizeData has no bs: no old model; plain counts: no cross-validation.
    auto fit = run_program_line("scoreWDL", "counts.json --plot no --report out", dir);
    REQUIRE(fit.exit_code == 0);
    auto markdown = read_text_file(dir / "out" / "report.md");
    for (const auto& section : kSections) CHECK(contains(markdown, "\n" + section + "\n"));
    CHECK(count_of(markdown, "No old model to compare with: give `--oldModel`") == 3);
    CHECK(contains(markdown, "No cross-validation: counts.json has no groups"));
    // The verdict falls back to the Fisher standard error, with its caution.
    CHECK(contains(markdown, "The interval assumes: Fisher information"));
    CHECK(contains(markdown, "No scan summary given"));
    CHECK(count_of(read_text_file(dir / "out" / "report.html"), "data:image/png;base64,") == 1);
    CHECK_FALSE(fs::exists(dir / "out" / "old_vs_new.png"));
}

TEST_CASE("scoreWDL --report without a fit is refused before the data are read", "[apps][report]") {
    fs::path dir = fresh_directory("report_no_fit");
    scan(dir, "");
    auto fit =
        run_program_line("scoreWDL", "counts.json --plot no --report out --modelFitting None", dir);
    CHECK(fit.exit_code != 0);
    CHECK(contains(fit.output, "--report needs a fit (--modelFitting is None)."));
    CHECK_FALSE(contains(fit.output, "Reading eval stats"));
    CHECK_FALSE(fs::exists(dir / "out"));
}

TEST_CASE("a bad --oldModel fails before the fit", "[apps][report]") {
    fs::path dir = fresh_directory("report_bad_old_model");
    scan(dir, "--groups 4");
    auto fit = run_program_line("scoreWDL",
                                "counts.json --plot no --report out --oldModel nosuchmodel", dir);
    CHECK(fit.exit_code != 0);
    CHECK(contains(fit.output, "nosuchmodel"));
    CHECK_FALSE(contains(fit.output, "Fit WDL model"));
    CHECK_FALSE(fs::exists(dir / "out" / "report.md"));
}

TEST_CASE("the HTML report shows every image and its numbers in headless Chromium",
          "[apps][report][browser]") {
    auto chromium = find_chromium();
    if (chromium.empty()) {
        skip_test("chromium is not installed (scripts/install-deps.sh --tests installs it)");
        return;
    }
    auto [dir, fit] = grouped_report("report_browser");
    auto html = (dir / "out" / "report.html").string();
    // No network at all: every host name fails to resolve, and no proxy is asked.
    std::vector<std::string> common{chromium.string(),
                                    "--headless=new",
                                    "--no-sandbox",
                                    "--disable-gpu",
                                    "--no-proxy-server",
                                    "--host-resolver-rules=MAP * ~NOTFOUND",
                                    "--user-data-dir=" + (dir / "chromium-profile").string(),
                                    "--window-size=1280,2400"};
    auto dom_command = common;
    dom_command.push_back("--dump-dom");
    dom_command.push_back("file://" + html);
    ChildProcess dom(dom_command, dir / "dom.txt");
    REQUIRE(dom.wait(std::chrono::minutes(2)) == 0);
    auto page = read_text_file(dir / "dom.txt");
    CHECK(contains(page, "data-images-loaded=\"3/3\""));
    auto json = nlohmann::json::parse(read_text_file(dir / "fit.json"));
    int pawn = json["model"]["NormalizeToPawnValue"];
    const auto& estimate = json["model"]["resampling"]["estimates"]["NormalizeToPawnValue"];
    CHECK(contains(page, fmt::format("NormalizeToPawnValue should change from 372 to {}.", pawn)));
    CHECK(contains(page,
                   fmt::format("95 % interval {:.0f} .. {:.0f}", double(estimate["interval"][0]),
                               double(estimate["interval"][1]))));

    // The count is the browser's: an image whose bytes are not a PNG does not count as loaded.
    auto broken = read_text_file(dir / "out" / "report.html");
    auto image = broken.find("base64,iVBOR");
    REQUIRE(image != std::string::npos);
    broken.replace(image + 7, 5, "AAAAA");
    write_text_file(dir / "broken.html", broken);
    auto broken_command = common;
    broken_command.push_back("--dump-dom");
    broken_command.push_back("file://" + (dir / "broken.html").string());
    ChildProcess broken_dom(broken_command, dir / "broken_dom.txt");
    REQUIRE(broken_dom.wait(std::chrono::minutes(2)) == 0);
    CHECK(contains(read_text_file(dir / "broken_dom.txt"), "data-images-loaded=\"2/3\""));

    auto screenshot_command = common;
    screenshot_command.push_back("--screenshot=" + (dir / "report.png").string());
    screenshot_command.push_back("file://" + html);
    ChildProcess screenshot(screenshot_command, dir / "screenshot.txt");
    REQUIRE(screenshot.wait(std::chrono::minutes(2)) == 0);
    auto png = read_text_file(dir / "report.png");
    CHECK(png_size(png) == std::pair<std::uint32_t, std::uint32_t>{1280, 2400});
    // A page of text, tables and plots, not a blank one (a blank PNG compresses to a few KB).
    CHECK(png.size() > 100000);
}
