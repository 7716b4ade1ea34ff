#include "wdl/report/reliability_plot.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {

void write_reliability_plot(const ReliabilityPlot& plot, const std::filesystem::path& png) {
    if (plot.panels.empty()) throw std::invalid_argument("reliability plot needs a panel");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::string panels;
    int file = 0;
    for (const auto& panel : plot.panels) {
        std::vector<std::string> clauses = {"x notitle lc rgb \"#888888\" dt 2"};
        for (std::size_t s = 0; s < panel.series.size(); ++s) {
            const auto& series = panel.series[s];
            if (series.points.empty()) continue;
            std::string data;
            // The bands a little apart, so that every interval shows.
            const double offset = 0.006 * (double(s) - double(panel.series.size() - 1) / 2);
            for (const auto& point : series.points)
                data += fmt::format("{:.17g} {:.17g} {:.17g} {:.17g}\n", point.predicted + offset,
                                    point.observed, point.low, point.high);
            const std::string name = fmt::format("series{}.dat", file++);
            scratch.write(name, data);
            clauses.push_back(
                fmt::format("'{}' using 1:2:3:4 with yerrorlines pt 7 ps 0.9 lw 1.5 title {}", name,
                            detail::gnuplot_string(series.label)));
        }
        std::string command;
        for (std::size_t i = 0; i < clauses.size(); ++i)
            command += (i ? ", \\\n     " : "") + clauses[i];
        panels +=
            fmt::format("set title {}\nplot {}\n", detail::gnuplot_string(panel.title), command);
    }
    const std::string script = fmt::format(
        "set terminal pngcairo noenhanced size {},620 font \"Sans,12\"\n"
        "set output \"reliability.png\"\n"
        "set multiplot layout 1,{} title {}\n"
        "set xrange [0:1]\nset yrange [0:1]\nset size ratio 1\n"
        "set grid\nset key top left\n"
        "set xlabel \"predicted expected score\"\nset ylabel \"observed mean score\"\n"
        "{}unset multiplot\n",
        80 + 560 * int(plot.panels.size()), int(plot.panels.size()),
        detail::gnuplot_string(plot.title), panels);
    scratch.write("reliability.gp", script);
    util::write_file_atomically(png,
                                detail::render_png(scratch, "reliability.gp", "reliability.png"));
}

}  // namespace wdl::report
