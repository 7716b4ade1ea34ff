#include "wdl/report/comparison_plot.hpp"

#include <fmt/format.h>

#include <array>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

constexpr std::array<const char*, 6> kColors = {"#1f77b4", "#d62728", "#2ca02c",
                                                "#9467bd", "#ff7f0e", "#8c564b"};
constexpr int kCurvePoints = 200;

const char* color_of(std::size_t model) { return kColors[model % kColors.size()]; }

// The reference's mom range drawn: its clamp, or its default table's extent.
std::pair<double, double> mom_range(const compare::Comparison& comparison) {
    const auto& reference = comparison.models.front().named.model;
    double low = comparison.rows.empty() ? 0 : comparison.rows.front().mom;
    double high = comparison.rows.empty() ? 2.0 * reference.mom_target : comparison.rows.back().mom;
    return {reference.mom_min.value_or(low), reference.mom_max.value_or(high)};
}

// "mom a b a_low a_high display" per line for one model, over the reference's moms.
std::string parameter_curve(const compare::Comparison& comparison, std::size_t index) {
    const auto& reference = comparison.models.front().named;
    const auto& named = comparison.models[index].named;
    auto [low, high] = mom_range(comparison);
    std::string text;
    for (int i = 0; i < kCurvePoints; ++i) {
        double mom = low + (high - low) * i / (kCurvePoints - 1);
        auto own = compare::corresponding_mom(reference.model.mom_type, mom, named.model.mom_type);
        if (!own) return "";
        double a = named.model.a(*own), b = named.model.b(*own);
        double error = compare::a_standard_error(named, *own).value_or(0);
        text += fmt::format("{:.6g} {:.6g} {:.6g} {:.6g} {:.6g} {:.6g}\n", mom, a, b, a - error,
                            a + error, reference.model.a(mom) / a);
    }
    return text;
}

// "pawns win draw loss" per line for one model at the comparison's target.
std::string outcome_curve(const compare::Comparison& comparison, std::size_t index) {
    const auto& reference = comparison.models.front().named.model;
    const auto& m = comparison.models[index].named.model;
    double mom = compare::corresponding_mom(reference.mom_type, comparison.target_mom, m.mom_type)
                     .value_or(m.mom_target);
    std::string text;
    for (int i = 0; i < kCurvePoints; ++i) {
        double pawns = -4 + 8.0 * i / (kCurvePoints - 1);
        double x = pawns * m.a(mom);
        text += fmt::format("{:.6g} {:.6g} {:.6g} {:.6g}\n", pawns, m.win(x, mom), m.draw(x, mom),
                            m.loss(x, mom));
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

void write_comparison_plot(const compare::Comparison& comparison,
                           const std::filesystem::path& png) {
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::vector<std::string> a_items, b_items, outcome_items, display_items;
    for (std::size_t i = 0; i < comparison.models.size(); ++i) {
        const auto& summary = comparison.models[i];
        std::string title = detail::gnuplot_string(summary.label + ": " + summary.named.name);
        std::string color = fmt::format("lc rgb '{}'", color_of(i));
        std::string outcome_file = fmt::format("outcome{}.dat", i);
        scratch.write(outcome_file, outcome_curve(comparison, i));
        outcome_items.push_back(
            fmt::format("'{}' using 1:2 with lines lw 2 {} title {}", outcome_file, color, title));
        outcome_items.push_back(fmt::format("'' using 1:3 with lines lw 2 dt 2 {} notitle", color));
        outcome_items.push_back(fmt::format("'' using 1:4 with lines lw 2 dt 3 {} notitle", color));
        std::string curve = parameter_curve(comparison, i);
        if (curve.empty()) continue;
        std::string file = fmt::format("model{}.dat", i);
        scratch.write(file, curve);
        if (summary.named.covariance)
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
    const std::string mom_name(model::mom_type_name(comparison.mom_type));
    const auto& reference = comparison.models.front();
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1800,1300 font \"Sans,13\"\n"
        "set output 'comparison.png'\nset multiplot title \"Comparison of WDL models\" font "
        "\",18\"\nset grid\n");
    script += panel(0, 0, "a(mom): the internal eval of a 50 % win", mom_name, "internal units") +
              plot_list(a_items);
    script += panel(0, 1, "b(mom): the spread", mom_name, "internal units") + plot_list(b_items);
    script += panel(1, 0,
                    fmt::format("W (solid), D (dashed), L (dotted) at {} {:g}", mom_name,
                                comparison.target_mom),
                    "displayed eval [pawns]", "probability") +
              "set yrange [0:1]\n" + plot_list(outcome_items);
    script +=
        panel(1, 1,
              fmt::format("How each model displays the eval {} displays as 1.00", reference.label),
              mom_name, "displayed eval [pawns]") +
        plot_list(display_items);
    script += "unset multiplot\n";
    scratch.write("comparison.gp", script);
    util::write_file_atomically(png,
                                detail::render_png(scratch, "comparison.gp", "comparison.png"));
}

}  // namespace wdl::report
