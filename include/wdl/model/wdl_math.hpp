#pragma once

#include <array>
#include <cmath>

// The WDL model (docs/model.md): logistic win/loss curves whose location a and spread b
// are cubic polynomials in t = mom / momTarget.
namespace wdl::model {

// While optimizing, a non-positive spread is treated as this small positive value, which
// guides b back towards positive values (as the original does).
inline constexpr double kMinSpread = 1e-8;

inline double effective_spread(double b) { return b < kMinSpread ? kMinSpread : b; }

// 1 / (1 + exp(-z)) without overflow for any finite z.
inline double logistic(double z) {
    if (z < 0) {
        double e = std::exp(z);
        return e / (1.0 + e);
    }
    return 1.0 / (1.0 + std::exp(-z));
}

inline double win_rate(double x, double a, double b) {
    return logistic((x - a) / effective_spread(b));
}
inline double loss_rate(double x, double a, double b) { return win_rate(-x, a, b); }
inline double draw_rate(double x, double a, double b) {
    return 1.0 - win_rate(x, a, b) - loss_rate(x, a, b);
}
// W + D / 2 from the win and loss rates.
inline double expected_score_of_rates(double w, double l) { return w + 0.5 * (1.0 - w - l); }
inline double expected_score(double x, double a, double b) {
    return expected_score_of_rates(win_rate(x, a, b), loss_rate(x, a, b));
}

// Coefficients c3, c2, c1, c0 (Stockfish's as[] / bs[] order).
using Poly3 = std::array<double, 4>;

inline double poly3(const Poly3& c, double t) { return ((c[0] * t + c[1]) * t + c[2]) * t + c[3]; }

// The sum c3 + c2 + c1 + c0 = p(1), accumulated left to right as Python's sum() does, so
// that values printed from it match the original digit for digit.
inline double coefficient_sum(const Poly3& c) { return ((0.0 + c[0] + c[1]) + c[2]) + c[3]; }

}  // namespace wdl::model
