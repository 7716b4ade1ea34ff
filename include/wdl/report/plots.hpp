#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_model.hpp"

// Plots of scoreWDL (docs/programs.md), drawn by running gnuplot (pngcairo terminal).
// The input types are plain data so that any caller can fill them.
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

// Position counts per mom for the stacked-bar distribution PNG (equal lengths).
struct Distribution {
    std::string mom_name = "material";
    std::vector<int> moms;
    std::vector<double> wins, draws, losses;
};

// Writes the distribution PNG atomically; errors as write_summary_plot.
void write_distribution_plot(const Distribution& distribution, const std::filesystem::path& png);

// Posterior distributions on a common grid, one curve each (scoreCompetence).
struct PosteriorPlot {
    std::string title;
    std::string x_label = "c";
    std::vector<double> grid;
    std::vector<std::string> names;
    std::vector<std::vector<double>> curves;  // one per name, each as long as the grid
};

// Writes the posterior PNG atomically; errors as write_summary_plot.
void write_posterior_plot(const PosteriorPlot& plot, const std::filesystem::path& png);
// One model's calibration: mean predicted and observed rates per bin (equal lengths).
struct CalibrationCurve {
    std::string model;
    std::vector<double> predicted, observed;
};

// The calibration PNG of scoreWDL --crossValidate --plot: observed against predicted win rate
// by bin of predicted win rate, and draw rate against material (predicted lines, observed
// points; the observed rates are the same for every model).
struct CalibrationPlot {
    std::vector<CalibrationCurve> win_by_predicted_win;
    std::vector<double> materials;  // bucket centres
    std::vector<CalibrationCurve> draw_by_material;
};

// Writes the calibration PNG atomically; errors as write_summary_plot.
void write_calibration_plot(const CalibrationPlot& plot, const std::filesystem::path& png);

// Expected-score curves against the displayed eval (annotateWDL --plot): one per score
// function, with the position symbols' bounds as dashed lines.
struct ScoreCurvesPlot {
    std::string title;
    std::vector<double> evals;  // displayed, in pawns
    std::vector<std::string> names;
    std::vector<std::vector<double>> curves;  // one per name, each as long as evals
    std::vector<double> bounds;               // expected scores above 0.5 (mirrored below)
};

// Writes the curves PNG atomically; errors as write_summary_plot.
void write_score_curves_plot(const ScoreCurvesPlot& plot, const std::filesystem::path& png);

// For --plot save+show: opens a saved PNG in the desktop's image viewer (xdg-open), only
// when $DISPLAY or $WAYLAND_DISPLAY is set. Returns false when there is no display or the
// viewer could not be run or failed; never throws.
bool show_plot(const std::filesystem::path& png);

}  // namespace wdl::report
