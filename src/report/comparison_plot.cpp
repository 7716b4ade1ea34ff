#include "wdl/report/comparison_plot.hpp"

#include <fmt/format.h>

#include <array>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

constexpr std::array<const char*, 6> kColors = {"#1f77b4", "#d62728", "#2ca02c",
                                                "#9467bd", "#ff7f0e", "#8c564b"};

const char* color_of(std::size_t model) { return kColors[model % kColors.size()]; }

// Columns of equal length as lines of a gnuplot data file.
std::string data_lines(const std::vector<const std::vector<double>*>& columns) {
    std::string text;
    for (std::size_t row = 0; row < columns.front()->size(); ++row) {
        for (std::size_t column = 0; column < columns.size(); ++column)
            text += fmt::format("{}{:.6g}", column ? " " : "", (*columns[column])[row]);
        text += '\n';
    }
    return text;
}

std::string panel(int row, int column, const std::string& title, const std::string& xlabel,
                  const std::string& ylabel) {
    return fmt::format(
        "\nunset key; set key top left box opaque\n"
        "set lmargin at screen {:.3f}; set rmargin at screen {:.3f}\n"
        "set tmargin at screen {:.3f}; set bmargin at screen {:.3f}\n"
        "set title {}; set xlabel {}; set ylabel {}\n"
        "set autoscale\n",
        0.07 + 0.5 * column, 0.47 + 0.5 * column, 0.92 - 0.47 * row, 0.55 - 0.47 * row,
        detail::gnuplot_string(title), detail::gnuplot_string(xlabel),
        detail::gnuplot_string(ylabel));
}

std::string plot_list(const std::vector<std::string>& items) {
    if (items.empty()) return "plot NaN notitle\n";
    std::string text = "plot " + items.front();
    for (std::size_t i = 1; i < items.size(); ++i) text += ", \\\n     " + items[i];
    return text + "\n";
}

}  // namespace

void write_comparison_plot(const ComparisonPlot& plot, const std::filesystem::path& png) {
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::vector<std::string> a_items, b_items, outcome_items, display_items;
    for (std::size_t i = 0; i < plot.models.size(); ++i) {
        const auto& curves = plot.models[i];
        std::string title = detail::gnuplot_string(curves.title);
        std::string color = fmt::format("lc rgb '{}'", color_of(i));
        std::string outcome_file = fmt::format("outcome{}.dat", i);
        scratch.write(outcome_file,
                      data_lines({&curves.pawns, &curves.win, &curves.draw, &curves.loss}));
        outcome_items.push_back(
            fmt::format("'{}' using 1:2 with lines lw 2 {} title {}", outcome_file, color, title));
        outcome_items.push_back(fmt::format("'' using 1:3 with lines lw 2 dt 2 {} notitle", color));
        outcome_items.push_back(fmt::format("'' using 1:4 with lines lw 2 dt 3 {} notitle", color));
        if (curves.moms.empty()) continue;
        std::string file = fmt::format("model{}.dat", i);
        scratch.write(file, data_lines({&curves.moms, &curves.a, &curves.b, &curves.a_low,
                                        &curves.a_high, &curves.display}));
        if (curves.has_band)
            a_items.push_back(fmt::format(
                "'{}' using 1:4:5 with filledcurves fs transparent solid 0.2 {} notitle", file,
                color));
        a_items.push_back(
            fmt::format("'{}' using 1:2 with lines lw 2 {} title {}", file, color, title));
        b_items.push_back(
            fmt::format("'{}' using 1:3 with lines lw 2 {} title {}", file, color, title));
        display_items.push_back(
            fmt::format("'{}' using 1:6 with lines lw 2 {} title {}", file, color, title));
    }
    const std::string& mom_name = plot.mom_name;
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1800,1300 font \"Sans,13\"\n"
        "set output 'comparison.png'\nset multiplot title \"Comparison of WDL models\" font "
        "\",18\"\nset grid\n");
    script += panel(0, 0, "a(mom): the internal eval of a 50 % win", mom_name, "internal units") +
              plot_list(a_items);
    script += panel(0, 1, "b(mom): the spread", mom_name, "internal units") + plot_list(b_items);
    script += panel(1, 0,
                    fmt::format("W (solid), D (dashed), L (dotted) at {} {:g}", mom_name,
                                plot.target_mom),
                    "displayed eval [pawns]", "probability") +
              "set yrange [0:1]\n" + plot_list(outcome_items);
    script += panel(1, 1,
                    fmt::format("How each model displays the eval {} displays as 1.00",
                                plot.reference_label),
                    mom_name, "displayed eval [pawns]") +
              plot_list(display_items);
    script += "unset multiplot\n";
    scratch.write("comparison.gp", script);
    util::write_file_atomically(png,
                                detail::render_png(scratch, "comparison.gp", "comparison.png"));
}

}  // namespace wdl::report
