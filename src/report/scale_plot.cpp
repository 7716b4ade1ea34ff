#include "wdl/report/scale_plot.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

// "y percent low high" of an interval, the row's y counted from the top.
std::string interval_line(double y, const RatioInterval& interval) {
    return fmt::format("{:.17g} {:.17g} {:.17g} {:.17g}\n", y, 100 * (interval.ratio - 1),
                       100 * (interval.low - 1), 100 * (interval.high - 1));
}

}  // namespace

void write_scale_plot(const ScalePlot& plot, const std::filesystem::path& png) {
    if (plot.rows.empty()) throw std::invalid_argument("scale plot needs a row");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::string tests, pooled, asymmetry_new, asymmetry_base, labels;
    const double rows = double(plot.rows.size());
    for (std::size_t i = 0; i < plot.rows.size(); ++i) {
        const ScaleRow& row = plot.rows[i];
        double y = rows - double(i);
        labels += fmt::format("{}{} {:.17g}", i ? ", " : "", detail::gnuplot_string(row.label), y);
        if (row.scale) (row.pooled ? pooled : tests) += interval_line(y, *row.scale);
        // The engines' rows a little apart, so that both intervals show.
        if (row.asymmetry[0]) asymmetry_new += interval_line(y + 0.12, *row.asymmetry[0]);
        if (row.asymmetry[1]) asymmetry_base += interval_line(y - 0.12, *row.asymmetry[1]);
    }
    // A panel plots its files that have points; a panel without any draws nothing (1/0).
    auto panel = [&scratch](const std::vector<std::array<std::string, 3>>& series) {
        std::vector<std::string> clauses;
        for (const auto& [file, data, style] : series) {
            if (data.empty()) continue;
            scratch.write(file, data);
            clauses.push_back(fmt::format("'{}' using 2:1:3:4 with xerrorbars {}", file, style));
        }
        if (clauses.empty()) return std::string("1/0 notitle\n");
        std::string command;
        for (std::size_t i = 0; i < clauses.size(); ++i)
            command += (i ? ", \\\n     " : "") + clauses[i];
        return command + "\n";
    };
    std::string scale_panel =
        panel({{{"tests.dat", tests, "pt 7 ps 1.3 lc rgb \"#1f5fa8\" title \"test\""},
                {"pooled.dat", pooled, "pt 5 ps 1.6 lc rgb \"#b2182b\" title \"pooled\""}}});
    std::string asymmetry_panel = panel(
        {{{"asymmetry_new.dat", asymmetry_new, "pt 7 ps 1.2 lc rgb \"#1f5fa8\" title \"New\""},
          {"asymmetry_base.dat", asymmetry_base,
           "pt 9 ps 1.3 lc rgb \"#e08214\" title \"Base\""}}});
    int percent = int(std::lround(100 * plot.confidence));
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1400,{} font \"Sans,13\"\n"
        "set output \"scale.png\"\n"
        "set multiplot layout 1,2 title {}\n"
        "set ytics ({})\n"
        "set yrange [0.4:{:.17g}]\n"
        "set grid xtics\n"
        "set key below horizontal\n"
        "set arrow 1 from 0, graph 0 to 0, graph 1 nohead lc rgb \"#555555\" dt 2\n"
        "set title \"NormalizeToPawnValue New / Base ({} % intervals)\"\n"
        "set xlabel \"New's evals larger than Base's by (%)\"\n"
        "plot {}"
        "set ytics format \"\"\n"
        "set title \"Side ahead / behind, per engine ({} % intervals)\"\n"
        "set xlabel \"evals for the side ahead larger by (%)\"\n"
        "plot {}"
        "unset multiplot\n",
        std::max(560, 220 + 60 * int(plot.rows.size())), detail::gnuplot_string(plot.title), labels,
        rows + 0.6, percent, scale_panel, percent, asymmetry_panel);
    scratch.write("scale.gp", script);
    util::write_file_atomically(png, detail::render_png(scratch, "scale.gp", "scale.png"));
}

}  // namespace wdl::report
