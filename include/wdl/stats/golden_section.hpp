#pragma once

#include <cmath>

// One-dimensional minimization without derivatives.
namespace wdl::stats {

// The minimum of a unimodal function on [low, high] by golden-section search, to within
// `tolerance` of x (at most 200 steps).
template <typename Function>
double golden_section_minimum(Function&& function, double low, double high,
                              double tolerance = 1e-12) {
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double left = high - ratio * (high - low), right = low + ratio * (high - low);
    double left_value = function(left), right_value = function(right);
    for (int i = 0; i < 200 && high - low > tolerance; ++i) {
        if (left_value < right_value) {
            high = right, right = left, right_value = left_value;
            left = high - ratio * (high - low);
            left_value = function(left);
        } else {
            low = left, left = right, left_value = right_value;
            right = low + ratio * (high - low);
            right_value = function(right);
        }
    }
    return (low + high) / 2;
}

}  // namespace wdl::stats
