#include "wdl/report/posterior_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {

void write_posterior_plot(const PosteriorPlot& plot, const std::filesystem::path& png) {
    if (plot.names.empty() || plot.names.size() != plot.curves.size())
        throw std::invalid_argument("posterior plot needs one curve per name (at least one)");
    for (const auto& curve : plot.curves)
        if (curve.size() != plot.grid.size())
            throw std::invalid_argument("posterior plot: a curve does not match the grid");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    // "c p1 p2 ..." per line: one column per curve.
    std::string data;
    for (std::size_t i = 0; i < plot.grid.size(); ++i) {
        data += fmt::format("{:.17g}", plot.grid[i]);
        for (const auto& curve : plot.curves) data += fmt::format(" {:.17g}", curve[i]);
        data += '\n';
    }
    scratch.write("posterior.dat", data);
    // Only the part of the grid where some curve has 0.1 % of its peak or more is drawn.
    std::size_t first = plot.grid.size(), last = 0;
    for (const auto& curve : plot.curves) {
        double peak = *std::max_element(curve.begin(), curve.end());
        for (std::size_t i = 0; i < curve.size(); ++i)
            if (curve[i] >= 1e-3 * peak) first = std::min(first, i), last = std::max(last, i);
    }
    if (first > last) first = 0, last = plot.grid.size() - 1;
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1200,800 font \"Sans,14\"\n"
        "set output \"posterior.png\"\n"
        "set title {}\n"
        "set xlabel {}; set ylabel \"posterior probability\"\n"
        "set key top right box opaque\n"
        "set grid\n"
        "set xrange [{:.17g}:{:.17g}]\n"
        "plot ",
        detail::gnuplot_string(plot.title), detail::gnuplot_string(plot.x_label), plot.grid[first],
        plot.grid[last] + (last == first ? 1 : 0));
    for (std::size_t i = 0; i < plot.names.size(); ++i)
        script += fmt::format("{}'posterior.dat' using 1:{} with lines lw 2 title {}",
                              i ? ", \\\n     " : "", i + 2, detail::gnuplot_string(plot.names[i]));
    script += "\n";
    scratch.write("posterior.gp", script);
    util::write_file_atomically(png, detail::render_png(scratch, "posterior.gp", "posterior.png"));
}

}  // namespace wdl::report
