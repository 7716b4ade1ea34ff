#include "wdl/report/score_curves_plot.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {

void write_score_curves_plot(const ScoreCurvesPlot& plot, const std::filesystem::path& png) {
    if (plot.names.empty() || plot.names.size() != plot.curves.size())
        throw std::invalid_argument("score curves plot needs one curve per name");
    for (const auto& curve : plot.curves)
        if (curve.size() != plot.evals.size())
            throw std::invalid_argument("score curves plot: a curve does not match the evals");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::string data;
    for (std::size_t i = 0; i < plot.evals.size(); ++i) {
        data += fmt::format("{:.17g}", plot.evals[i]);
        for (const auto& curve : plot.curves) data += fmt::format(" {:.17g}", curve[i]);
        data += '\n';
    }
    scratch.write("scores.dat", data);
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1200,800 font \"Sans,14\"\n"
        "set output \"scores.png\"\n"
        "set title {}\n"
        "set xlabel \"displayed eval (pawns)\"; set ylabel \"expected score\"\n"
        "set key top left box opaque\n"
        "set grid\n"
        "set yrange [0:1]\n",
        detail::gnuplot_string(plot.title));
    // The symbols' bounds, mirrored for Black.
    for (double bound : plot.bounds)
        script += fmt::format(
            "set arrow from graph 0, first {0:.17g} to graph 1, first {0:.17g} "
            "nohead dt 2 lc rgb \"gray40\"\n"
            "set arrow from graph 0, first {1:.17g} to graph 1, first {1:.17g} "
            "nohead dt 2 lc rgb \"gray40\"\n",
            bound, 1 - bound);
    script += "plot ";
    for (std::size_t i = 0; i < plot.names.size(); ++i)
        script += fmt::format("{}'scores.dat' using 1:{} with lines lw 2 title {}",
                              i ? ", \\\n     " : "", i + 2, detail::gnuplot_string(plot.names[i]));
    script += "\n";
    scratch.write("scores.gp", script);
    util::write_file_atomically(png, detail::render_png(scratch, "scores.gp", "scores.png"));
}

}  // namespace wdl::report
