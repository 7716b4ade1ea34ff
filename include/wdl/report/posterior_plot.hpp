#pragma once

#include <filesystem>
#include <string>
#include <vector>

// Posteriors on a common grid (scoreCompetence's c per engine).
namespace wdl::report {

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

}  // namespace wdl::report
