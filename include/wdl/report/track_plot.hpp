#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// The eval scale over time (trackWDL): a fitted value per window with its interval, the
// published models as steps, and the engine's current model as a line.
namespace wdl::report {

struct TrackPlotWindow {
    std::string date;  // YYYY-MM-DD where the window is drawn
    double value = 0;
    std::optional<double> low, high;  // the interval, when the window has one
    bool departs = false;             // the interval excludes the reference
};

struct TrackPlotStep {
    std::string date;  // YYYY-MM-DD from which the model was published
    double value = 0;
    std::string name;
};

struct TrackPlot {
    std::string title;
    std::string y_label = "NormalizeToPawnValue";
    std::string verdict;                   // a line under the plot
    std::vector<TrackPlotWindow> windows;  // in order of date
    std::vector<TrackPlotStep> steps;      // in order of date
    double reference = 0;
    std::string reference_name;
    std::string reference_note = " (engine's model)";  // after the name in the key
};

// Writes the PNG atomically; errors as write_summary_plot. Needs at least one window.
void write_track_plot(const TrackPlot& plot, const std::filesystem::path& png);

}  // namespace wdl::report
