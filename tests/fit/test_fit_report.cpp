#include <catch2/catch.hpp>
#include <numeric>

#include "wdl/fit/fit_report.hpp"

TEST_CASE("skipped moms print as a numpy array", "[fit][text]") {
    std::vector<int> moms(51);
    std::iota(moms.begin(), moms.end(), 70);
    CHECK(wdl::fit::skipped_moms_warning("move", moms) ==
          "Warning: Too little data, so skipping move values "
          "[ 70  71  72  73  74  75  76  77  78  79  80  81  82  83  84  85  86  87\n"
          "  88  89  90  91  92  93  94  95  96  97  98  99 100 101 102 103 104 105\n"
          " 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120]");
}

// The original's dev_fitDensity lines; the two derived figures are Python's for the
// coefficients as printed (rounded to 8 decimals).
TEST_CASE("the model summary prints the original's lines", "[fit][text]") {
    wdl::model::WdlModel model;
    model.as = {-171.82364230, 598.00738486, -785.33325432, 736.64520814};
    model.bs = {-1100.39790499, 3175.47517077, -2462.57959244, 821.17626324};
    CHECK(wdl::fit::model_summary(model) ==
          "const int NormalizeToPawnValue = 377;\n"
          "Corresponding spread = 434;\n"
          "Corresponding normalized spread = 1.14881822690622;\n"
          "Draw rate at 0.0 eval at material 58 = 0.409682697178244;\n"
          "Parameters in internal value units: \n"
          "p_a = ((-171.824 * x / 58 + 598.007) * x / 58 + -785.333) * x / 58 + 736.645\n"
          "p_b = ((-1100.398 * x / 58 + 3175.475) * x / 58 + -2462.580) * x / 58 + 821.176\n"
          "    constexpr double as[] = {-171.82364230, 598.00738486, -785.33325432, "
          "736.64520814};\n"
          "    constexpr double bs[] = {-1100.39790499, 3175.47517077, -2462.57959244, "
          "821.17626324};\n");
}

namespace {

wdl::fit::Resampling example_resampling() {
    wdl::fit::Resampling resampling;
    resampling.grouping = {wdl::counts::GroupBy::Game, 64};
    resampling.groups = 64;
    resampling.replicates = 64;
    wdl::fit::ResampledEstimate pawn;
    pawn.name = "NormalizeToPawnValue";
    pawn.estimate = 357.6;
    pawn.standard_error = 2.1;
    pawn.low = 353.4;
    pawn.high = 361.8;
    pawn.fisher_standard_error = 2.1 / std::sqrt(3.4);
    pawn.design_effect = 3.4;
    wdl::fit::ResampledEstimate draw_rate;
    draw_rate.name = "drawRateAtZero";
    draw_rate.estimate = 0.61234;
    draw_rate.standard_error = 0.0081;
    draw_rate.low = 0.5961;
    draw_rate.high = 0.6286;
    resampling.estimates = {pawn, draw_rate};
    return resampling;
}

}  // namespace

TEST_CASE("resampled constants print with their interval, method and design effect",
          "[fit][text]") {
    wdl::model::WdlModel model;
    model.as = {0, 0, 0, 357.6};
    auto text = wdl::fit::resampling_report(example_resampling(), model);
    CHECK_THAT(text,
               Catch::Contains("\nNormalizeToPawnValue = 358 +- 2.1 (95 % interval 353 .. 362; "
                               "jackknife over 64 game groups; design effect 3.4)\n"));
    CHECK_THAT(text, Catch::Contains("\nDraw rate at 0.0 eval = 0.612 +- 0.0081 (95 % interval "
                                     "0.596 .. 0.629; jackknife over 64 game groups)\n"));
    CHECK_THAT(text, Catch::StartsWith("Error bars from the jackknife over 64 game groups: they "
                                       "take the groups as independent"));
    auto json = wdl::fit::resampling_json(example_resampling());
    CHECK(json["method"] == "jackknife");
    CHECK(json["groupBy"] == "game");
    CHECK(json["estimates"]["NormalizeToPawnValue"]["interval"][1] == 361.8);
    CHECK(json["estimates"]["NormalizeToPawnValue"]["designEffect"] == 3.4);
    CHECK_FALSE(json["estimates"]["drawRateAtZero"].contains("designEffect"));
}
