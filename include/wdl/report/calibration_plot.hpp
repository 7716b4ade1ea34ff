#pragma once

#include <filesystem>
#include <string>
#include <vector>

// Calibration of predicted W/D/L rates (scoreWDL --crossValidate --plot).
namespace wdl::report {

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

}  // namespace wdl::report
