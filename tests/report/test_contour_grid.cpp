#include <catch2/catch.hpp>
#include <cmath>

#include "contour_grid.hpp"

using namespace wdl::report;
using namespace wdl::report::detail;

TEST_CASE("fractions fall into the bands between contour levels", "[report]") {
    CHECK(band_of(0.0) == 0);
    CHECK(band_of(0.049) == 0);
    CHECK(band_of(0.05) == 1);
    CHECK(band_of(0.5) == 4);
    CHECK(band_of(0.96) == 6);
    CHECK(band_of(0.97) == 7);
    CHECK(band_of(1.0) == 7);
}

TEST_CASE("counts are pooled at their nearest grid point", "[report]") {
    const Axis eval{-100, 100, 3};  // points at -100, 0, 100
    const Axis mom{10, 12, 3};
    const std::vector<CountCell> cells = {
        {10, -90, 1, 3, 0},   // nearest (-100, 10)
        {10, -120, 1, 0, 0},  // also (-100, 10): within half a step outside
        {10, -160, 5, 5, 5},  // too far outside: ignored
        {12, 40, 2, 1, 1},    // nearest (0, 12)
    };
    const MeasuredFractions fractions = measure_fractions(cells, eval, mom);
    CHECK(fractions.wins.at(0, 0) == Approx(2.0 / 5));
    CHECK(fractions.draws.at(0, 0) == Approx(3.0 / 5));
    CHECK(fractions.wins.at(1, 2) == Approx(0.5));
    CHECK(std::isnan(fractions.wins.at(2, 2)));
    CHECK(std::isnan(fractions.draws.at(1, 1)));
}

TEST_CASE("resampling interpolates and stays blank where data is missing", "[report]") {
    const double nan = std::nan("");
    const Grid coarse{Axis{0, 2, 3}, Axis{0, 1, 2}, {0, 1, nan, 0, 1, nan}};
    const Grid fine = resample(coarse, Axis{0, 2, 9}, Axis{0, 1, 2});
    CHECK(fine.at(0, 0) == Approx(0));
    CHECK(fine.at(2, 0) == Approx(0.5));
    CHECK(fine.at(4, 0) == Approx(1));
    // Nearer to the point with data than to the empty one: its value, not blank.
    CHECK(fine.at(5, 1) == Approx(1));
    CHECK(std::isnan(fine.at(7, 1)));
}
