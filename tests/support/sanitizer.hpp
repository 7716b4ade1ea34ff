#pragma once

#include <algorithm>
#include <cmath>

// The statistical tests are the slowest under a sanitizer (ten to thirty times their plain run):
// there they repeat less. A sanitizer looks for memory errors, undefined behaviour and data
// races, which show on the same code paths with fewer repetitions; the statistical power is
// checked in the plain build, which runs every repetition.
namespace wdl::testing {

// True in the trees built with WDL_SANITIZE or WDL_SANITIZE_THREAD (tests/support/CMakeLists.txt).
inline constexpr bool kUnderSanitizer = WDL_UNDER_SANITIZER != 0;

// `plain` repetitions in a plain build, `sanitized` under a sanitizer.
constexpr int repetitions(int plain, int sanitized) { return kUnderSanitizer ? sanitized : plain; }

// The fewest of n draws a 95 % interval may cover: 3.3 binomial standard deviations below the
// expected 0.95 n (90 % of 200 draws).
inline double fewest_covers_of_95(int draws) {
    return 0.95 * draws - 3.3 * std::sqrt(draws * 0.95 * 0.05);
}

// The most: 2.7 standard deviations above (99 % of 200 draws), never more than all of them.
inline double most_covers_of_95(int draws) {
    return std::min(double(draws), 0.95 * draws + 2.7 * std::sqrt(draws * 0.95 * 0.05));
}

}  // namespace wdl::testing
