#include <catch2/catch.hpp>
#include <limits>
#include <vector>

#include "wdl/fit/count_grid.hpp"

using wdl::counts::Outcome;
using wdl::counts::PositionKey;
using wdl::fit::CountGrid;
using wdl::fit::GridFilter;
using wdl::model::Normalization;

namespace {

// Adds the count; whether the grid retained it.
bool retained(CountGrid& grid, const PositionKey& key, std::int64_t count) {
    auto before = grid.totals().total();
    grid.add(key, count);
    return grid.totals().total() == before + count;
}

}  // namespace

TEST_CASE("evalMax is round(evalMax * pawn value / 100) in internal units", "[fit][grid]") {
    CHECK(CountGrid(GridFilter{}, Normalization::fixed(328)).eval_max() == 1312);
    GridFilter filter;
    filter.eval_max_cp = 1;
    CHECK(CountGrid(filter, Normalization::fixed(250)).eval_max() == 2);  // 2.5 -> 2
    CHECK(CountGrid(filter, Normalization::fixed(350)).eval_max() == 4);  // 3.5 -> 4
}

TEST_CASE("keys outside the move, material and eval windows are dropped", "[fit][grid]") {
    GridFilter filter;
    filter.move_min = 5;
    filter.move_max = 50;
    filter.eval_max_cp = 100;
    CountGrid grid(filter, Normalization::fixed(200));
    CHECK(grid.eval_max() == 200);
    CHECK(retained(grid, {Outcome::Win, 10, 40, 100}, 3));        // internal 200: kept
    CHECK_FALSE(retained(grid, {Outcome::Win, 10, 40, 101}, 3));  // internal 202
    CHECK_FALSE(retained(grid, {Outcome::Win, 4, 40, 0}, 1));
    CHECK_FALSE(retained(grid, {Outcome::Win, 51, 40, 0}, 1));
    CHECK_FALSE(retained(grid, {Outcome::Draw, 10, 16, 0}, 1));
    CHECK_FALSE(retained(grid, {Outcome::Draw, 10, 79, 0}, 1));
    CHECK(retained(grid, {Outcome::Draw, 10, 17, -5}, 2));
    CHECK(retained(grid, {Outcome::Loss, 10, 78, 0}, 4));
    CHECK(retained(grid, {Outcome::Loss, 12, 78, 0}, 1));
    auto totals = grid.totals();
    CHECK(totals.wins == 3);
    CHECK(totals.draws == 2);
    CHECK(totals.losses == 5);
    CHECK(grid.at(40, 200).wins == 3);
    CHECK(grid.at(17, -10).draws == 2);
    CHECK(grid.at(78, 0).losses == 5);
    CHECK(grid.totals_at_mom(78).losses == 5);
}

TEST_CASE("evals whose internal value overflows an int are dropped, not wrapped", "[fit][grid]") {
    CountGrid grid(GridFilter{}, Normalization::from_options(std::nullopt, std::nullopt));
    // 1666890004 cp times the pawn value is beyond 2^31; so is INT_MIN's; the third wrapped to
    // an internal eval of 5 when narrowed before the range check.
    CHECK_FALSE(retained(grid, {Outcome::Win, 10, 19, 1666890004}, 1));
    CHECK_FALSE(retained(grid, {Outcome::Win, 10, 40, std::numeric_limits<int>::min()}, 1));
    CHECK_FALSE(retained(grid, {Outcome::Win, 10, 40, 1125970050}, 7));
    CHECK_FALSE(retained(grid, {Outcome::Win, 10, 40, std::numeric_limits<int>::max()}, 1));
    CHECK(grid.totals().total() == 0);
}

TEST_CASE("counts that add up beyond 63 bits are an error, never negative", "[fit][grid]") {
    constexpr auto kLargest = std::numeric_limits<std::int64_t>::max();
    CountGrid same_cell(GridFilter{}, Normalization::fixed(100));
    same_cell.add({Outcome::Win, 10, 40, 0}, kLargest);
    CHECK_THROWS_WITH(same_cell.add({Outcome::Win, 10, 40, 0}, 1),
                      Catch::Contains("more than 2^63 - 1"));
    CountGrid two_cells(GridFilter{}, Normalization::fixed(100));
    two_cells.add({Outcome::Win, 10, 40, 0}, kLargest);
    two_cells.add({Outcome::Win, 10, 41, 0}, kLargest);
    CHECK_THROWS_WITH(two_cells.totals(), Catch::Contains("more than 2^63 - 1"));
    CountGrid win_and_loss(GridFilter{}, Normalization::fixed(100));
    win_and_loss.add({Outcome::Win, 10, 40, 0}, kLargest);
    win_and_loss.add({Outcome::Loss, 10, 40, 0}, kLargest);
    CHECK_THROWS_WITH(win_and_loss.totals().total(), Catch::Contains("more than 2^63 - 1"));
}

TEST_CASE("the grid can be indexed by move number", "[fit][grid]") {
    GridFilter filter;
    filter.mom_type = wdl::model::MomType::Move;
    filter.move_min = 8;
    CountGrid grid(filter, Normalization::fixed(100));
    CHECK(grid.mom_min() == 8);
    CHECK(grid.mom_max() == 120);
    CHECK(retained(grid, {Outcome::Win, 30, 60, 7}, 2));
    CHECK(grid.at(30, 7).wins == 2);
    CHECK(grid.totals_at_mom(30).wins == 2);
}

TEST_CASE("a key's counts in several groups go in as they would one group at a time",
          "[fit][grid]") {
    auto normalization = Normalization::fixed(300);
    CountGrid at_once(GridFilter{}, normalization, true),
        one_by_one(GridFilter{}, normalization, true);
    const PositionKey kept{Outcome::Draw, 20, 40, 50}, dropped{Outcome::Win, 20, 10, 50};
    const std::vector<int> groups{0, 3, 7};
    const std::vector<std::int64_t> counts{2, 5, 1};
    for (const auto& key : {kept, dropped}) {
        at_once.add_to_groups(key, groups, counts);
        for (std::size_t i = 0; i < groups.size(); ++i)
            one_by_one.add_to_group(groups[i], key, counts[i]);
    }
    CHECK(at_once.totals().draws == 8);
    CHECK(at_once.totals().total() == one_by_one.totals().total());
    REQUIRE(at_once.group_counts().size() == one_by_one.group_counts().size());
    for (std::size_t g = 0; g < at_once.group_counts().size(); ++g) {
        const auto &a = at_once.group_counts()[g], &b = one_by_one.group_counts()[g];
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            CHECK(a[i].key == b[i].key);
            CHECK(a[i].count == b[i].count);
            CHECK(a[i].cell == b[i].cell);
        }
    }
    const std::vector<std::int64_t> huge{std::numeric_limits<std::int64_t>::max(), 1};
    CHECK_THROWS(at_once.add_to_groups(kept, std::vector<int>{1, 2}, huge));
}
