#include "wdl/stats/distributions.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace wdl::stats {
namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

// The continued fraction of the regularized incomplete beta function I_x(a, b), evaluated
// with the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double x, double a, double b) {
    constexpr double kTiny = 1e-300;
    constexpr double kEpsilon = 1e-15;
    double c = 1.0;
    double d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
    double fraction = d;
    for (int m = 1; m <= 1000; ++m) {
        // The even and the odd term of step m.
        for (double term : {m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))}) {
            d = 1.0 + term * d;
            d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
            c = 1.0 + term / c;
            if (std::abs(c) < kTiny) c = kTiny;
            fraction *= c * d;
        }
        if (std::abs(c * d - 1.0) < kEpsilon) break;
    }
    return fraction;
}

double regularized_incomplete_beta(double x, double a, double b) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double log_front =
        a * std::log(x) + b * std::log1p(-x) + std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b);
    if (x < (a + 1) / (a + b + 2))
        return std::exp(log_front) * beta_continued_fraction(x, a, b) / a;
    return 1.0 - std::exp(log_front) * beta_continued_fraction(1 - x, b, a) / b;
}

// The x in [low, high] where an increasing function reaches `target`, by bisection.
template <typename Function>
double solve_increasing(Function&& function, double target, double low, double high) {
    for (int i = 0; i < 200 && high - low > 1e-13 * std::max(1.0, std::abs(low)); ++i) {
        double middle = 0.5 * (low + high);
        (function(middle) < target ? low : high) = middle;
    }
    return 0.5 * (low + high);
}

}  // namespace

double normal_quantile(double p) { return solve_increasing(normal_cdf, p, -40.0, 40.0); }

double student_t_cdf(double t, double dof) {
    double tail = 0.5 * regularized_incomplete_beta(dof / (dof + t * t), dof / 2, 0.5);
    return t < 0 ? tail : 1.0 - tail;
}

double student_t_quantile(double p, double dof) {
    auto cdf = [dof](double t) { return student_t_cdf(t, dof); };
    double bound = 10.0;
    while (cdf(-bound) > p || cdf(bound) < p) bound *= 10;
    return solve_increasing(cdf, p, -bound, bound);
}

double f_upper_tail(double f, double d1, double d2) {
    if (f <= 0) return 1;
    return regularized_incomplete_beta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

double sample_quantile(std::span<double> values, double p) {
    std::sort(values.begin(), values.end());
    double position = p * double(values.size() - 1);
    std::size_t below = std::size_t(position);
    if (below + 1 >= values.size()) return values.back();
    double fraction = position - double(below);
    return values[below] + fraction * (values[below + 1] - values[below]);
}

double mean(std::span<const double> values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

double sample_variance(std::span<const double> values) {
    if (values.size() < 2) return 0;
    double center = mean(values);
    double squares = 0;
    for (double value : values) squares += (value - center) * (value - center);
    return squares / double(values.size() - 1);
}

MeanEstimate grouped_mean(std::span<const double> sums, std::span<const double> sizes) {
    double total = 0, count = 0;
    int groups = 0;
    for (std::size_t g = 0; g < sums.size(); ++g) {
        total += sums[g];
        count += sizes[g];
        groups += sizes[g] > 0;
    }
    MeanEstimate mean{count > 0 ? total / count : 0, 0};
    double squares = 0;
    for (std::size_t g = 0; g < sums.size(); ++g) {
        double residual = sums[g] - mean.value * sizes[g];
        squares += residual * residual;
    }
    if (groups > 1) mean.error = std::sqrt(squares * groups / (groups - 1)) / count;
    return mean;
}

MeanEstimate independent_mean(double sum, double sum_of_squares, double count) {
    if (count <= 0) return {};
    double value = sum / count;
    double variance = std::max(sum_of_squares / count - value * value, 0.0);
    return {value, std::sqrt(variance / count)};
}

}  // namespace wdl::stats
