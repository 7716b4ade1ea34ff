#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_model.hpp"

// scoreWDL's summary plot (docs/programs.md): the retained counts and the fit, drawn with
// gnuplot (pngcairo terminal). Plain data, so that any caller can fill it.
namespace wdl::report {

// Retained position counts at one (mom, internal eval) point.
struct CountCell {
    int mom = 0;
    int eval = 0;  // internal value units
    double wins = 0, draws = 0, losses = 0;
};

struct FittedModel {
    model::WdlModel model;
    // The stage-1 local fits: a and b of each mom that had enough wins (equal lengths).
    std::vector<int> local_moms;
    std::vector<double> local_as, local_bs;
    // The input data's dynamic normalization, whose p_a is drawn when it shares the mom type.
    std::optional<model::DynamicNormalization> input_normalization;
};

struct SummaryPlot {
    std::string mom_name = "material";  // "material" or "move"
    int pawn_value = 328;               // internal units per pawn: second x axis, plot ranges
    int mom_plot_min = 17, mom_plot_max = 78, mom_plot_target = 58;
    std::vector<CountCell> cells;      // any order; cells with equal keys are added
    std::optional<FittedModel> model;  // absent for --modelFitting None: data panels only
};

// Writes the 2x3 summary PNG atomically. Throws wdl::Error with a clear message
// when gnuplot is missing or fails, or the PNG cannot be written.
void write_summary_plot(const SummaryPlot& plot, const std::filesystem::path& png);

}  // namespace wdl::report
