#pragma once

#include <optional>
#include <vector>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/report/plots.hpp"

// The inputs of scoreWDL's plots, taken from the retained counts and the fit.
namespace wdl::report {

// --momPlotMin, --momPlotMax, --momPlotTarget: unset means the grid's range and the fit's target.
struct PlotRange {
    std::optional<int> mom_min, mom_max, mom_target;
};

// The summary plot of the retained data and, if there is one, the fit.
SummaryPlot summary_plot_of(const fit::CountGrid& grid, const std::vector<fit::MomData>& moms,
                            const std::optional<fit::FitResult>& fit,
                            const model::Normalization& normalization, int mom_target,
                            const PlotRange& range);

// The W/D/L position counts per mom of the retained data.
Distribution distribution_of(const fit::CountGrid& grid);

// The calibration tables of a cross-validation.
CalibrationPlot calibration_plot_of(const fit::CrossValidation& validation);

}  // namespace wdl::report
