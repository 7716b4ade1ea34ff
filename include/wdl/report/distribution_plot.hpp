#pragma once

#include <filesystem>
#include <string>
#include <vector>

// scoreWDL's distribution plot: W/D/L position counts per mom as stacked bars.
namespace wdl::report {

// Position counts per mom for the stacked-bar distribution PNG (equal lengths).
struct Distribution {
    std::string mom_name = "material";
    std::vector<int> moms;
    std::vector<double> wins, draws, losses;
};

// Writes the distribution PNG atomically; errors as write_summary_plot.
void write_distribution_plot(const Distribution& distribution, const std::filesystem::path& png);

}  // namespace wdl::report
