// The fit's data from a human-games count file: cells gathered across move numbers, per speed
// class, and read within a memory limit by whole game groups. The expected values are counted
// by hand from the cells written.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "program_runner.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/human/human_data.hpp"
#include "wdl/util/error.hpp"

namespace fs = std::filesystem;
using namespace wdl::human;
using wdl::counts::Outcome;
using wdl::counts::SpeedClass;

namespace {

fs::path scratch(const std::string& name) {
    return wdl::testing::scratch_directory() / ("wdl_test_human_data_" + name);
}

// `groups` groups; in group g, for each of 5 evals, a win at move 10 and a loss at move 30 of
// the same (material, ratings, eval): the fit's one cell of outcomes (1, 0, 1), and g + 1 more
// wins at move 50. A mate score in every group.
wdl::counts::HumanCounts groups_of_cells(int groups) {
    wdl::counts::HumanCounts counts;
    counts.groups = groups;
    for (int group = 0; group < groups; ++group)
        for (int eval = -200; eval <= 200; eval += 100) {
            counts.cells.push_back(
                {{{Outcome::Win, 10, 40, eval}, 1525, 1475, SpeedClass::Rapid}, group, 1});
            counts.cells.push_back(
                {{{Outcome::Loss, 30, 40, eval}, 1525, 1475, SpeedClass::Rapid}, group, 1});
            counts.cells.push_back({{{Outcome::Win, 50, 40, eval}, 1525, 1475, SpeedClass::Rapid},
                                    group,
                                    std::uint64_t(group + 1)});
        }
    for (int group = 0; group < groups; ++group)
        counts.cells.push_back(
            {{{Outcome::Win, 60, 10, wdl::counts::kMateEval}, 1525, 1475, SpeedClass::Rapid},
             group,
             7});
    std::sort(counts.cells.begin(), counts.cells.end(), [](const auto& x, const auto& y) {
        const auto order = [](const wdl::counts::HumanCell& c) {
            return std::tuple(int(c.key.position.result), c.key.position.move,
                              c.key.position.material, c.key.position.eval, c.group);
        };
        return order(x) < order(y);
    });
    return counts;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
    return text;
}

}  // namespace

TEST_CASE("A count file's cells become the fit's data per speed class", "[human][data]") {
    using wdl::counts::Outcome;
    using wdl::counts::SpeedClass;
    wdl::counts::HumanCounts counts;
    counts.groups = 1000000;  // a header's count: what is kept grows with the groups used
    auto cell = [&](Outcome result, int eval, int group, std::uint64_t count, SpeedClass speed) {
        counts.cells.push_back({{{result, 20, 40, eval}, 1525, 1475, speed}, group, count});
    };
    cell(Outcome::Win, 50, 999999, 3, SpeedClass::Rapid);
    cell(Outcome::Draw, 50, 999999, 2, SpeedClass::Rapid);
    cell(Outcome::Loss, 50, 7, 1, SpeedClass::Rapid);
    cell(Outcome::Win, wdl::counts::kMateEval, 7, 4, SpeedClass::Rapid);
    cell(Outcome::Loss, -20, 3, 5, SpeedClass::Blitz);
    cell(Outcome::Draw, 0, 7, 2, SpeedClass::Rapid);  // shown as 0.00: a unit of its own
    const auto by_speed = human_data_by_speed(counts);
    REQUIRE(by_speed.size() == 2);
    CHECK(by_speed[0].speed == SpeedClass::Blitz);
    const auto& rapid = by_speed[1];
    CHECK(rapid.speed == SpeedClass::Rapid);
    CHECK(rapid.groups == 2);  // groups 7 and 999999, renumbered in order
    CHECK(rapid.positions == 8);
    CHECK(rapid.mate_positions == 4);
    REQUIRE(rapid.cells.size() == 3);
    REQUIRE(rapid.units.size() == 2);
    for (const auto& c : rapid.cells) {
        CHECK(c.rating == 1525);
        CHECK(c.opponent_rating == 1475);
        const auto& unit = rapid.units[c.unit];
        CHECK(unit.level == Approx((1500 - kLevelCentre) / kRatingScale));
        CHECK(unit.zero_eval == (c.cp == 0));
        if (c.group == 1) CHECK(c.outcomes == std::array<double, 3>{3, 2, 0});
        if (c.group == 0 && c.cp == 50) CHECK(c.outcomes == std::array<double, 3>{0, 0, 1});
        if (c.group == 0 && c.cp == 0) CHECK(c.outcomes == std::array<double, 3>{0, 2, 0});
    }
}

TEST_CASE("Cells of one situation at several move numbers become one cell of the fit",
          "[human][data]") {
    const fs::path file = scratch("moves.txt");
    wdl::counts::write_human_counts(file, groups_of_cells(4));
    const auto read = read_human_data(file, std::size_t{1} << 30);
    CHECK(read.complete());
    CHECK(read.groups == 4);
    CHECK(read.positions_left_out == 0);
    REQUIRE(read.by_speed.size() == 1);
    const auto& rapid = read.by_speed[0];
    CHECK(rapid.groups == 4);
    CHECK(rapid.mate_positions == 4 * 7);
    REQUIRE(rapid.cells.size() == 4 * 5);
    // Per group: 5 evals of 1 + 1 + (g + 1) positions.
    CHECK(rapid.positions == 5 * (3 + 4 + 5 + 6));
    for (const auto& cell : rapid.cells) {
        INFO("group " << cell.group << ", cp " << cell.cp);
        CHECK(cell.outcomes == std::array<double, 3>{1.0 + cell.group + 1, 0, 1});
    }
    // The same as the cells read whole.
    const auto whole = human_data_by_speed(wdl::counts::read_human_counts(file));
    REQUIRE(whole.size() == 1);
    CHECK(whole[0].positions == rapid.positions);
    CHECK(whole[0].cells.size() == rapid.cells.size());
}

TEST_CASE("Within a memory limit the first game groups are fitted and the rest counted",
          "[human][data]") {
    const fs::path file = scratch("limit.txt");
    const int groups = 8;
    const auto counts = groups_of_cells(groups);
    wdl::counts::write_human_counts(file, counts);
    // A limit of three groups' cells: the file's cells / 8 groups, each at kBytesPerCountCell.
    const std::size_t per_group = counts.cells.size() / groups * kBytesPerCountCell;
    const auto read = read_human_data(file, 3 * per_group + per_group / 2);
    CHECK_FALSE(read.complete());
    CHECK(read.groups_kept == 3);
    REQUIRE(read.by_speed.size() == 1);
    CHECK(read.by_speed[0].groups == 3);
    CHECK(read.by_speed[0].positions == 5 * (3 + 4 + 5));
    // Groups 3 .. 7 left out: 5 evals of 2 + g + 1 positions, and their mates.
    double left_out = 0;
    for (int group = 3; group < groups; ++group) left_out += 5 * (3 + group) + 7;
    CHECK(read.positions_left_out == left_out);
    CHECK_THROWS_WITH(read_human_data(file, per_group),
                      Catch::Contains("limit.txt") && Catch::Contains("fewer than 2 of its 8") &&
                          Catch::Contains("--memoryLimit"));
}

TEST_CASE("A file holding more cells than its header announces is refused as it is read",
          "[human][data]") {
    const fs::path file = scratch("announced.txt");
    const auto counts = groups_of_cells(2);
    wdl::counts::write_human_counts(file, counts);
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    const std::string announced = "\"cells\": " + std::to_string(counts.cells.size());
    std::ofstream(file) << replaced(text.str(), announced, "\"cells\": 3");
    CHECK_THROWS_WITH(read_human_data(file, std::size_t{1} << 30),
                      Catch::Contains("announced.txt") &&
                          Catch::Contains("more cells than its header announces (3)"));
}
