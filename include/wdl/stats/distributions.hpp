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

// The p-quantile of a sample (linear interpolation between order statistics, numpy's default);
// the values are sorted in place.
double sample_quantile(std::span<double> values, double p);

double mean(std::span<const double> values);
// The sample variance (divisor n - 1); 0 for fewer than 2 values.
double sample_variance(std::span<const double> values);

}  // namespace wdl::stats
