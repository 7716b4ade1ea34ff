#include <catch2/catch.hpp>
#include <cmath>

#include "wdl/annotate/expected_score.hpp"
#include "wdl/annotate/symbols.hpp"

using namespace wdl::annotate;
using Catch::Detail::Approx;

namespace {

// Konrod's bounds (Evaluation Relevance Reduction) in eval units for a win-draw balance x05 (its
// closed forms).
double konrod_bound(double numerator_log, double x05) { return numerator_log * x05 / std::log(2); }

}  // namespace

TEST_CASE("Konrod's closed-form bounds are the schemes' expected scores", "[annotate]") {
    const double x05 = 0.62;
    // konrod9: ln(10/9) x05/ln2, ln(10/7) x05/ln2, x05, 2 x05 (0.094, 0.319, 0.62, 1.24).
    std::array<double, 4> konrod9 = {konrod_bound(std::log(10.0 / 9), x05),
                                     konrod_bound(std::log(10.0 / 7), x05), x05, 2 * x05};
    CHECK(konrod9[0] == Approx(0.094).margin(5e-4));
    CHECK(konrod9[1] == Approx(0.319).margin(5e-4));
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(konrod_score(konrod9[i], x05) == Approx(position_bounds(PositionScheme::Konrod9)[i]));
    // equal9: (ln 9 - 3 ln 2), (ln 3 - ln 2), (ln 9 - 2 ln 2), (ln 9 - ln 2), times x05 / ln 2.
    std::array<double, 4> equal9 = {
        konrod_bound(std::log(9) - 3 * std::log(2), x05), konrod_bound(std::log(1.5), x05),
        konrod_bound(std::log(9) - 2 * std::log(2), x05), konrod_bound(std::log(4.5), x05)};
    CHECK(equal9[0] == Approx(0.1053).margin(5e-4));
    CHECK(equal9[3] == Approx(1.3453).margin(5e-4));
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(konrod_score(equal9[i], x05) == Approx(position_bounds(PositionScheme::Equal9)[i]));
    // seven: (ln(7/3) - ln 2), (ln 7 - 2 ln 2), (ln 7 - ln 2), times x05 / ln 2.
    std::array<double, 3> seven = {konrod_bound(std::log(7.0 / 3) - std::log(2), x05),
                                   konrod_bound(std::log(7) - 2 * std::log(2), x05),
                                   konrod_bound(std::log(3.5), x05)};
    CHECK(seven[1] == Approx(0.5005).margin(5e-4));
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(konrod_score(seven[i], x05) == Approx(position_bounds(PositionScheme::Seven)[i]));
    CHECK(konrod_score(0, x05) == 0.5);
    CHECK(konrod_score(-x05, x05) == Approx(0.25));
}

TEST_CASE("position symbols flip exactly at the bounds, for both colours", "[annotate]") {
    for (auto scheme : {PositionScheme::Konrod9, PositionScheme::Equal9, PositionScheme::Seven}) {
        INFO(position_scheme_name(scheme));
        auto bounds = position_bounds(scheme);
        CHECK(position_nag(0.5, scheme) == 10);
        for (int i = 0; i < bound_count(scheme); ++i) {
            INFO("bound " << i);
            double bound = bounds[std::size_t(i)];
            double below = std::nextafter(bound, 0.0);
            // White: just below the bound the range under it, on the bound the range above.
            CHECK(position_nag(below, scheme) == (i == 0 ? 10 : 12 + 2 * i));
            CHECK(position_nag(bound, scheme) == 14 + 2 * i);
            // Black, mirrored.
            CHECK(position_nag(1 - below, scheme) == (i == 0 ? 10 : 13 + 2 * i));
            CHECK(position_nag(1 - bound, scheme) == 15 + 2 * i);
        }
    }
    CHECK(position_nag(0.99, PositionScheme::Seven) == 18);  // no extreme symbol in seven
    CHECK(position_nag(0.99, PositionScheme::Konrod9) == 20);
    CHECK(nag_symbol(20) == "++-");
    CHECK(nag_symbol(15) == "=/+");
}

TEST_CASE("move symbols flip exactly at the thresholds", "[annotate]") {
    MoveThresholds thresholds;
    CHECK(move_nag(std::nextafter(0.05, 0.0), thresholds) == 0);
    CHECK(move_nag(0.05, thresholds) == 6);
    CHECK(move_nag(0.10, thresholds) == 2);
    CHECK(move_nag(std::nextafter(0.20, 0.0), thresholds) == 2);
    CHECK(move_nag(0.20, thresholds) == 4);
    CHECK(move_nag(-0.5, thresholds) == 0);  // a gain is no error
    CHECK(good_move_nag(0.20, thresholds) == 3);
    // Konrod's economical 7 ranges: x05 / (7 ln 2) of its relevance is 1/14 of the whole
    // 2 x05 / ln 2, its example's 0.127 for x05 = 0.62 (the article cuts the third decimal).
    auto relevance = relevance_thresholds();
    CHECK(relevance.dubious * 2 * 0.62 / std::log(2) == Approx(0.127).margin(1e-3));
    CHECK(relevance.mistake == Approx(3.0 / 14));
    CHECK(relevance.blunder * 2 * 0.62 / std::log(2) == Approx(0.638).margin(1e-3));
}
