#pragma once

#include <filesystem>

#include "wdl/compare/model_comparison.hpp"

namespace wdl::report {

// The comparison of models as a PNG of four panels: a(mom) with a band of +-1 standard error
// where the covariance is known, b(mom), the W/D/L curves against the displayed eval at the
// reference's target mom, and how each model displays the eval the reference displays as 1.00.
// Written atomically; throws wdl::Error when gnuplot fails.
void write_comparison_plot(const compare::Comparison& comparison, const std::filesystem::path& png);

}  // namespace wdl::report
