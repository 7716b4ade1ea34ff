#pragma once

#include <filesystem>
#include <string>
#include <vector>

// Expected-score curves against the displayed eval (annotateWDL --plot).
namespace wdl::report {

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

}  // namespace wdl::report
