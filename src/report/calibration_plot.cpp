#include "wdl/report/calibration_plot.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

// One data block per curve ("predicted observed" or "material predicted observed" lines),
// blocks separated by two blank lines for gnuplot's `index`.
std::string curves_text(const std::vector<CalibrationCurve>& curves,
                        const std::vector<double>* positions) {
    std::string text;
    for (const auto& curve : curves) {
        for (std::size_t i = 0; i < curve.predicted.size(); ++i) {
            if (positions) text += fmt::format("{:.17g} ", (*positions)[i]);
            text += fmt::format("{:.17g} {:.17g}\n", curve.predicted[i], curve.observed[i]);
        }
        text += "\n\n";
    }
    return text;
}

std::string calibration_script(const CalibrationPlot& plot, const std::string& png_name) {
    std::string win_curves, draw_curves;
    for (std::size_t i = 0; i < plot.win_by_predicted_win.size(); ++i) {
        std::string title = detail::gnuplot_string(plot.win_by_predicted_win[i].model);
        win_curves += fmt::format(
            ", 'win.dat' index {} using 1:2 with linespoints lw 2 pt 7 title {}", i, title);
        draw_curves +=
            fmt::format(", 'draw.dat' index {} using 1:2 with lines lw 2 title {}", i, title);
    }
    return fmt::format(
        "set terminal pngcairo noenhanced size 1800,800 font \"Sans,14\"\n"
        "set output {}\n"
        "set multiplot layout 1,2 title \"Calibration on held-out folds\"\n"
        "set title \"Win rate by predicted win rate\"\n"
        "set xlabel \"predicted win rate\"; set ylabel \"observed win rate\"\n"
        "set xrange [0:1]; set yrange [0:1]; set size ratio -1; set grid\n"
        "set key top left box opaque\n"
        "plot x with lines lc rgb 'gray' dt 2 title 'perfect calibration'{}\n"
        "set title \"Draw rate by material\"\n"
        "set xlabel \"material\"; set ylabel \"draw rate\"\n"
        "set autoscale x; set yrange [0:1]; set size noratio\n"
        "set key top right box opaque\n"
        "plot 'draw.dat' index 0 using 1:3 with points pt 7 ps 1.5 lc rgb 'black' "
        "title 'observed'{}\n"
        "unset multiplot\n",
        detail::gnuplot_string(png_name), win_curves, draw_curves);
}

}  // namespace

void write_calibration_plot(const CalibrationPlot& plot, const std::filesystem::path& png) {
    if (plot.win_by_predicted_win.empty() || plot.draw_by_material.empty())
        throw std::invalid_argument("calibration plot needs at least one model");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    const std::string png_name = "calibration.png";
    scratch.write("win.dat", curves_text(plot.win_by_predicted_win, nullptr));
    scratch.write("draw.dat", curves_text(plot.draw_by_material, &plot.materials));
    scratch.write("calibration.gp", calibration_script(plot, png_name));
    util::write_file_atomically(png, detail::render_png(scratch, "calibration.gp", png_name));
}

}  // namespace wdl::report
