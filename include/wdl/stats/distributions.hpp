#pragma once

#include <span>

// Quantiles and summaries for confidence intervals.
namespace wdl::stats {

// The p-quantile of the standard normal distribution, 0 < p < 1.
double normal_quantile(double p);

// P(T <= t) for Student's t with dof > 0 degrees of freedom.
double student_t_cdf(double t, double dof);

// The p-quantile of Student's t with dof > 0 degrees of freedom, 0 < p < 1.
double student_t_quantile(double p, double dof);

// P(F > f) for Fisher's F with d1 > 0 and d2 > 0 degrees of freedom (1 for f <= 0).
double f_upper_tail(double f, double d1, double d2);

// The p-quantile of a sample (linear interpolation between order statistics, numpy's default);
// the values are sorted in place.
double sample_quantile(std::span<double> values, double p);

double mean(std::span<const double> values);
// The sample variance (divisor n - 1); 0 for fewer than 2 values.
double sample_variance(std::span<const double> values);

// A mean with its standard error.
struct MeanEstimate {
    double value = 0, error = 0;
};

// The mean of a quantity over units of groups (sum of group sums over sum of group sizes),
// with its standard error taking the groups, not the units, as independent: the ratio
// estimator's linearized variance. Groups of size 0 are left out; the error is 0 for fewer than
// 2 groups.
MeanEstimate grouped_mean(std::span<const double> sums, std::span<const double> sizes);

// The mean of `count` independent units from the sum of their values and of their squares,
// with its standard error sqrt(variance / count).
MeanEstimate independent_mean(double sum, double sum_of_squares, double count);

}  // namespace wdl::stats
