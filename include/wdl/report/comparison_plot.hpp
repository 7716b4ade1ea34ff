#pragma once

#include <filesystem>
#include <string>
#include <vector>

// compareWDL's plot of models side by side (plain data; compareWDL fills it).
namespace wdl::report {

// One model's curves. The parameter curves are over the reference's moms and empty when the
// model's mom does not correspond to the reference's (equal lengths otherwise).
struct ComparedModelCurves {
    std::string title;      // "label: name"
    bool has_band = false;  // a_low and a_high are +-1 standard error
    std::vector<double> moms, a, b, a_low, a_high;
    std::vector<double> display;  // the model's displayed eval of the reference's 1.00
    // W/D/L against the displayed eval (pawns) at the comparison's target (equal lengths).
    std::vector<double> pawns, win, draw, loss;
};

struct ComparisonPlot {
    std::string mom_name = "material";
    double target_mom = 58;
    std::string reference_label;
    std::vector<ComparedModelCurves> models;  // the reference first
};

// The comparison as a PNG of four panels: a(mom) with its band where known, b(mom), the W/D/L
// curves at the target, and how each model displays the eval the reference displays as 1.00.
// Written atomically; throws wdl::Error when gnuplot fails.
void write_comparison_plot(const ComparisonPlot& plot, const std::filesystem::path& png);

}  // namespace wdl::report
