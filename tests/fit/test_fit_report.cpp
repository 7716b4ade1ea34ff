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
