#pragma once

#include <optional>
#include <vector>

#include "wdl/commands/score_wdl.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/report/calibration_plot.hpp"
#include "wdl/report/distribution_plot.hpp"
#include "wdl/report/summary_plot.hpp"

// The inputs of scoreWDL's plots, taken from the retained counts and the fit.
namespace wdl::commands {

// The summary plot of the retained data and, if there is one, the fit.
report::SummaryPlot summary_plot_of(const fit::CountGrid& grid,
                                    const std::vector<fit::MomData>& moms,
                                    const std::optional<fit::FitResult>& fit,
                                    const model::Normalization& normalization, int mom_target,
                                    const PlotRange& range);

// The W/D/L position counts per mom of the retained data.
report::Distribution distribution_of(const fit::CountGrid& grid);

// The calibration tables of a cross-validation.
report::CalibrationPlot calibration_plot_of(const fit::CrossValidation& validation);

}  // namespace wdl::commands
