#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// Plots of markovWDL (docs/programs.md), drawn with gnuplot (pngcairo). The inputs are plain
// data: the markov module's results are turned into them by the caller.
namespace wdl::report {

// Two engines' transition matrices over the same classes (rows: from, columns: to).
struct MatrixHeatmaps {
    std::string title;
    std::vector<std::string> labels;  // one per class
    std::array<std::string, 2> names;
    std::array<std::vector<std::vector<double>>, 2> matrices;
};

// Three heatmaps side by side: each engine's matrix (logarithmic colours) and their difference
// (first minus second). Written atomically; throws wdl::Error when gnuplot fails.
void write_matrix_heatmaps(const MatrixHeatmaps& heatmaps, const std::filesystem::path& png);

// Per class, for two engines: the share of their moves made from it, and the mean positive
// drop of those moves (NaN where there are none).
struct ClassProfiles {
    std::string title;
    std::vector<std::string> labels;
    std::array<std::string, 2> names;
    std::array<std::vector<double>, 2> occupancy;  // shares
    std::array<std::vector<double>, 2> mean_drop;  // pawns
};

void write_class_profiles(const ClassProfiles& profiles, const std::filesystem::path& png);

// Predicted against actual scores: one point per pairing (all its games) and one per direction
// of the cross-fit (a fold predicted from the other).
struct ScorePoint {
    double actual = 0, actual_error = 0;  // the standard error; error bars are +-1.96 of it
    double stationary = 0;
    std::optional<double> model;
    std::optional<double> baseline;  // cross-fit points only
};

struct PredictionPlot {
    std::vector<ScorePoint> pairings;
    std::vector<ScorePoint> crossfit;
};

void write_prediction_plot(const PredictionPlot& plot, const std::filesystem::path& png);

}  // namespace wdl::report
