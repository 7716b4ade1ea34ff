#pragma once

#include <filesystem>
#include <string>
#include <vector>

// A reliability diagram of expected scores (humanWDL --plots): the observed mean score against
// the predicted one, with intervals, a panel per predictor and a series per rating band (plain
// data; humanWDL fills it).
namespace wdl::report {

struct ReliabilityPoint {
    double predicted = 0, observed = 0, low = 0, high = 0;
};

struct ReliabilitySeries {
    std::string label;  // the rating band
    std::vector<ReliabilityPoint> points;
};

struct ReliabilityPanel {
    std::string title;  // the predictor
    std::vector<ReliabilitySeries> series;
};

struct ReliabilityPlot {
    std::string title;
    std::vector<ReliabilityPanel> panels;  // side by side
};

// Written atomically; throws wdl::Error when gnuplot fails, std::invalid_argument without a
// panel.
void write_reliability_plot(const ReliabilityPlot& plot, const std::filesystem::path& png);

}  // namespace wdl::report
