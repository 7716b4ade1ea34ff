#pragma once

#include "wdl/compare/model_comparison.hpp"
#include "wdl/report/comparison_plot.hpp"

// The input of the plot of models side by side (compareWDL's plot, scoreWDL --report's old
// against new), taken from a comparison.
namespace wdl::commands {

// The plot's curves of each model, over the reference's moms and at the comparison's target.
report::ComparisonPlot comparison_plot_of(const compare::Comparison& comparison);

}  // namespace wdl::commands
