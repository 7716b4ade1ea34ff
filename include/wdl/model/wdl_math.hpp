#pragma once

#include <cmath>

// The WDL model (docs/model.md): logistic win/loss curves with location a and spread b.
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

}  // namespace wdl::model
