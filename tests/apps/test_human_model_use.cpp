// A human model (humanWDL -o) used: queryWDL --elo --tc, and exportWDL's Python and JavaScript
// modules run by python3 and node, against the model's formula and queryWDL's numbers.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "program_runner.hpp"
#include "skip.hpp"
#include "wdl/util/process.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

// Rapid: the form with the level, the side to move's shift, the ceiling's kappa and the
// difference; blitz: the rating-blind one; classical: rapid's with the eval map, eta and zeta.
constexpr const char* kModel = R"({
  "kind": "wdlfit human model", "version": 1, "materialTarget": 58, "levelCentre": 1500,
  "ratingScale": 400, "cpCeiling": 1000,
  "classes": [
    {"speed": "rapid", "form": "level+difference+tempo+ceiling",
     "parameterNames": ["A0","A1","A2","A3","B0","B1","B2","B3","alpha1","beta1","tau0","kappa",
                        "g"],
     "parameters": [1.1, 0.7, -0.2, 0.05, 1.7, 0.3, 0.1, -0.02, -0.15, -0.4, -0.12, 1.3, 0.55],
     "standardErrors": null, "covariance": null, "positions": 1000, "matePositions": 0,
     "groups": 16, "ratingRange": [650, 2750]},
    {"speed": "blitz", "form": "flat",
     "parameterNames": ["A0","A1","A2","A3","B0","B1","B2","B3"],
     "parameters": [0.9, 0.5, 0, 0, 1.9, 0.2, 0, 0],
     "standardErrors": null, "covariance": null, "positions": 1000, "matePositions": 0,
     "groups": 16, "ratingRange": [650, 2750]},
    {"speed": "classical", "form": "level+difference+tempo+ceiling+map+zero+slip",
     "parameterNames": ["A0","A1","A2","A3","B0","B1","B2","B3","alpha1","beta1","tau0","kappa",
                        "map1","map2","map3","map5","map7","eta","zeta","g"],
     "parameters": [1.0, 0.6, -0.1, 0.02, 1.8, 0.2, 0.05, -0.01, -0.1, -0.35, -0.08, 1.5,
                    0.5, 0.3, 0, -0.6, -0.8, -0.04, 0.45, 0.6],
     "standardErrors": null, "covariance": null, "positions": 1000, "matePositions": 0,
     "groups": 16, "ratingRange": [650, 2750]}]})";

double logistic(double z) { return 1 / (1 + std::exp(-z)); }

// The rapid class's W/D/L by the formula of docs/human-games.md, written out.
std::array<double, 3> rapid_by_hand(double cp, double material, double elo, double opponent) {
    const double t = material / 58, l = ((elo + opponent) / 2 - 1500) / 400,
                 d = (elo - opponent) / 400;
    const double a = (1.1 + 0.7 * t - 0.2 * t * t + 0.05 * t * t * t) * std::exp(-0.15 * l);
    const double b = (1.7 + 0.3 * t + 0.1 * t * t - 0.02 * t * t * t) * std::exp(-0.4 * l);
    const double x = std::clamp(cp, -1000.0, 1000.0) / 100 +
                     (std::abs(cp) >= 1000 ? std::copysign(1.3, cp) : 0.0);
    const double s = -0.12 + 0.55 * d;
    const double win = logistic((x - a) / b + s), loss = logistic((-x - a) / b - s);
    return {win, 1 - win - loss, loss};
}

// The classical class's W/D/L: below the ceiling, the eval read by interpolating linearly
// between the moved knots (0, 0), (1, 1.5), (2, 2.3), (3, 3), (5, 4.4), (7, 6.2), (10, 10),
// then moved by eta times the clamped eval's size; a times exp(zeta) at an eval shown as 0.00
// (-2 to 2 cp).
std::array<double, 3> classical_by_hand(double cp, double material, double elo, double opponent) {
    const double t = material / 58, l = ((elo + opponent) / 2 - 1500) / 400,
                 d = (elo - opponent) / 400;
    const double a = (1.0 + 0.6 * t - 0.1 * t * t + 0.02 * t * t * t) * std::exp(-0.1 * l) *
                     (std::abs(cp) <= 2 ? std::exp(0.45) : 1.0);
    const double b = (1.8 + 0.2 * t + 0.05 * t * t - 0.01 * t * t * t) * std::exp(-0.35 * l);
    const std::array<double, 7> knots = {0, 1, 2, 3, 5, 7, 10},
                                moved = {0, 1.5, 2.3, 3, 4.4, 6.2, 10};
    const double pawns = std::abs(cp) / 100;
    double x = 10 + 1.5;  // at the ceiling: 10 + kappa
    for (std::size_t k = 0; k + 1 < knots.size() && pawns < 10; ++k)
        if (pawns <= knots[k + 1]) {
            x = moved[k] +
                (moved[k + 1] - moved[k]) * (pawns - knots[k]) / (knots[k + 1] - knots[k]);
            break;
        }
    x = std::copysign(x, cp) - 0.04 * std::min(pawns, 10.0);
    const double s = -0.08 + 0.6 * d;
    const double win = logistic((x - a) / b + s), loss = logistic((-x - a) / b - s);
    return {win, 1 - win - loss, loss};
}

ProgramRun run_checked(const std::string& name, const std::vector<std::string>& arguments,
                       const fs::path& dir) {
    auto run = run_program(name, arguments, dir);
    INFO(name << ": " << run.output);
    REQUIRE(run.exit_code == 0);
    return run;
}

const std::vector<double> kEvals = {-100000, -450, -35, -3, 0, 2, 20, 180, 1200};
const std::vector<double> kMaterials = {12, 41, 58, 76};

std::string joined(const std::vector<double>& values) {
    std::string text;
    for (double value : values) text += (text.empty() ? "" : ",") + fmt::format("{:g}", value);
    return text;
}

// queryWDL's rows for the side to move rated `elo` against `opponent`.
nlohmann::json query(const fs::path& dir, double elo, double opponent, const std::string& tc) {
    auto run = run_checked(
        "queryWDL",
        {"--model", "human.json", "--elo", fmt::format("{:g},{:g}", elo, opponent), "--tc", tc,
         "--evals", joined(kEvals), "--materials", joined(kMaterials), "--json", "-"},
        dir);
    return nlohmann::json::parse(run.output)["wdl"];
}

bool tool_installed(const std::string& tool) {
    auto run = wdl::util::run_process({tool, "--version"});
    if (!run || run->exit_code != 0) {
        skip_test(tool + " is not installed");
        return false;
    }
    return true;
}

// The exported module's W/D/L on queryWDL's grid, one "win draw loss" line per row.
void check_export(const std::string& language, const std::string& module,
                  const std::string& driver_name, const std::string& driver) {
    auto dir = fresh_directory("human_export_" + language);
    write_text_file(dir / "human.json", kModel);
    run_checked("exportWDL", {"--model", "human.json", "--language", language, "-o", module}, dir);
    write_text_file(dir / driver_name, driver);
    auto run =
        wdl::util::run_process({language == "python" ? "python3" : "node", driver_name}, dir);
    REQUIRE(run);
    INFO(run->output);
    REQUIRE(run->exit_code == 0);
    std::istringstream in(run->output);
    for (const auto& [elo, opponent, tc] :
         {std::tuple{1500.0, 1600.0, "600+5"}, std::tuple{2300.0, 1900.0, "900+10"},
          std::tuple{1100.0, 1100.0, "180+2"}, std::tuple{1700.0, 1850.0, "1800+0"}}) {
        for (const auto& row : query(dir, elo, opponent, tc)) {
            double win = 0, draw = 0, loss = 0;
            in >> win >> draw >> loss;
            REQUIRE(in);
            CHECK(std::abs(win - row["win"].get<double>()) <= 1e-12);
            CHECK(std::abs(draw - row["draw"].get<double>()) <= 1e-12);
            CHECK(std::abs(loss - row["loss"].get<double>()) <= 1e-12);
        }
    }
}

// Every (ratings, time control), material and eval of the checks, in queryWDL's row order.
std::string grid(const char* list_open, const char* list_close) {
    return fmt::format(
        "{0}{0}1500, 1600, '600+5'{1}, {0}2300, 1900, '900+10'{1}, "
        "{0}1100, 1100, '180+2'{1}, {0}1700, 1850, '1800+0'{1}{1}",
        list_open, list_close);
}

}  // namespace

TEST_CASE("queryWDL answers a human model's W/D/L for two ratings and a time control",
          "[apps][human]") {
    auto dir = fresh_directory("human_query");
    write_text_file(dir / "human.json", kModel);
    const auto rows = query(dir, 1500, 1600, "600+5");
    REQUIRE(rows.size() == kEvals.size() * kMaterials.size());
    std::size_t i = 0;
    for (double material : kMaterials)
        for (double cp : kEvals) {
            const auto& row = rows[i++];
            CHECK(row["material"] == material);
            CHECK(row["evalCp"] == cp);
            const auto expected = rapid_by_hand(cp, material, 1500, 1600);
            CHECK(row["win"].get<double>() == Approx(expected[0]).epsilon(1e-12));
            CHECK(row["draw"].get<double>() == Approx(expected[1]).margin(1e-12));
            CHECK(row["loss"].get<double>() == Approx(expected[2]).epsilon(1e-12));
        }
    // The eval map's class, by its interpolation written out.
    const auto classical = query(dir, 1700, 1850, "1800+0");
    REQUIRE(classical.size() == kEvals.size() * kMaterials.size());
    i = 0;
    for (double material : kMaterials)
        for (double cp : kEvals) {
            const auto& row = classical[i++];
            INFO("classical, material " << material << ", cp " << cp);
            const auto expected = classical_by_hand(cp, material, 1700, 1850);
            CHECK(row["win"].get<double>() == Approx(expected[0]).epsilon(1e-12));
            CHECK(row["draw"].get<double>() == Approx(expected[1]).margin(1e-12));
            CHECK(row["loss"].get<double>() == Approx(expected[2]).epsilon(1e-12));
        }
    // The printed table is the JSON's twin.
    auto printed = run_checked(
        "queryWDL", {"--model", "human.json", "--elo", "1500,1600", "--tc", "600+5"}, dir);
    CHECK_THAT(printed.output, Catch::Contains("human model of rapid games"));
    CHECK_THAT(printed.output, Catch::Contains("W/D/L per mille"));
}

TEST_CASE("queryWDL says what a human model needs", "[apps][human]") {
    auto dir = fresh_directory("human_query_errors");
    write_text_file(dir / "human.json", kModel);
    auto without = run_program("queryWDL", {"--model", "human.json"}, dir);
    CHECK(without.exit_code == 1);
    CHECK_THAT(without.output, Catch::Contains("give --elo"));
    auto bullet = run_program("queryWDL",
                              {"--model", "human.json", "--elo", "1500,1500", "--tc", "60+0"}, dir);
    CHECK(bullet.exit_code == 1);
    CHECK_THAT(bullet.output, Catch::Contains("no model of bullet games"));
    auto engine = run_program("queryWDL", {"--model", "sf", "--elo", "1500,1500"}, dir);
    CHECK(engine.exit_code == 1);
    CHECK_THAT(engine.output, Catch::Contains("for a human model"));
    auto rust = run_program("exportWDL", {"--model", "human.json", "--language", "rust"}, dir);
    CHECK(rust.exit_code == 1);
    CHECK_THAT(rust.output, Catch::Contains("python or javascript"));
}

TEST_CASE("exportWDL's Python module of a human model agrees with queryWDL", "[apps][human]") {
    if (!tool_installed("python3")) return;
    check_export("python", "human_wdl.py", "driver.py",
                 fmt::format("import human_wdl as m\n"
                             "for elo, opponent, tc in {}:\n"
                             "    for material in [{}]:\n"
                             "        for cp in [{}]:\n"
                             "            w, d, l = m.wdl(cp, material, 30, elo, opponent, tc)\n"
                             "            print(repr(w), repr(d), repr(l))\n",
                             grid("[", "]"), joined(kMaterials), joined(kEvals)));
}

TEST_CASE("exportWDL's JavaScript module of a human model agrees with queryWDL", "[apps][human]") {
    if (!tool_installed("node")) return;
    check_export("javascript", "human_wdl.mjs", "driver.mjs",
                 fmt::format("import * as m from './human_wdl.mjs';\n"
                             "for (const [elo, opponent, tc] of {}) {{\n"
                             "    for (const material of [{}]) {{\n"
                             "        for (const cp of [{}]) {{\n"
                             "            const [w, d, l] = m.wdl(cp, material, 30, elo, "
                             "opponent, tc);\n"
                             "            console.log(String(w), String(d), String(l));\n"
                             "        }}\n    }}\n}}\n",
                             grid("[", "]"), joined(kMaterials), joined(kEvals)));
}
