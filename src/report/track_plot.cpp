#include "wdl/report/track_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

using std::chrono::sys_days;

sys_days day_of(const std::string& date) {
    int year = std::stoi(date.substr(0, 4));
    unsigned month = unsigned(std::stoi(date.substr(5, 2)));
    unsigned day = unsigned(std::stoi(date.substr(8, 2)));
    return sys_days(std::chrono::year(year) / std::chrono::month(month) / std::chrono::day(day));
}

std::string date_of(sys_days day) {
    std::chrono::year_month_day date(day);
    return fmt::format("{:04}-{:02}-{:02}", int(date.year()), unsigned(date.month()),
                       unsigned(date.day()));
}

}  // namespace

void write_track_plot(const TrackPlot& plot, const std::filesystem::path& png) {
    if (plot.windows.empty()) throw std::invalid_argument("track plot needs a window");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    // A margin of a tenth of the span (at least a week) on both sides of the windows.
    sys_days first = day_of(plot.windows.front().date), last = day_of(plot.windows.back().date);
    auto margin = std::max(std::chrono::days(7), (last - first) / 10);
    sys_days x_min = first - margin, x_max = last + margin;

    std::string windows, band, departs;
    for (const auto& window : plot.windows) {
        windows +=
            fmt::format("{} {:.17g} {:.17g} {:.17g}\n", window.date, window.value,
                        window.low.value_or(window.value), window.high.value_or(window.value));
        if (window.low && window.high)
            band += fmt::format("{} {:.17g} {:.17g}\n", window.date, *window.low, *window.high);
        if (window.departs) departs += fmt::format("{} {:.17g}\n", window.date, window.value);
    }
    // Each model from its date (or the left edge, for the one in force there) to the next
    // one's; the last to the right edge.
    std::string steps, step_names;
    double last_value = 0;
    for (std::size_t i = 0; i < plot.steps.size(); ++i) {
        const auto& step = plot.steps[i];
        bool replaced_before_edge =
            i + 1 < plot.steps.size() && day_of(plot.steps[i + 1].date) <= x_min;
        sys_days from = std::max(day_of(step.date), x_min);
        if (replaced_before_edge || from > x_max) continue;
        steps += fmt::format("{} {:.17g}\n", date_of(from), step.value);
        step_names += fmt::format("{} {:.17g} \"{}\"\n", date_of(from), step.value, step.name);
        last_value = step.value;
    }
    if (!steps.empty()) steps += fmt::format("{} {:.17g}\n", date_of(x_max), last_value);
    // The verdict on two lines: what it says, then its numbers in parentheses.
    std::string verdict_line = plot.verdict, detail_line;
    if (auto open = plot.verdict.find(" ("); open != std::string::npos) {
        verdict_line = plot.verdict.substr(0, open);
        detail_line = plot.verdict.substr(open + 1);
    }
    scratch.write("windows.dat", windows);
    std::vector<std::string> clauses;
    if (!band.empty()) {
        scratch.write("band.dat", band);
        clauses.push_back(
            "'band.dat' using 1:2:3 with filledcurves fc rgb \"#9ecae1\" fs transparent solid 0.45 "
            "title \"interval\"");
    }
    clauses.push_back(
        "'windows.dat' using 1:2:3:4 with yerrorbars pt 7 ps 1.2 lc rgb \"#1f5fa8\" title "
        "\"windows (fit, interval)\"");
    if (!departs.empty()) {
        scratch.write("departs.dat", departs);
        clauses.push_back(fmt::format(
            "'departs.dat' using 1:2 with points pt 6 ps 2.6 lw 2 lc rgb \"#d62728\" title {}",
            detail::gnuplot_string("departs from " + plot.reference_name + " beyond noise")));
    }
    if (!steps.empty()) {
        scratch.write("steps.dat", steps);
        scratch.write("step_names.dat", step_names);
        clauses.push_back(
            "'steps.dat' using 1:2 with steps lw 2 lc rgb \"#555555\" title \"published models\"");
        clauses.push_back(
            "'step_names.dat' using 1:2:3 with labels offset 0,0.8 left font \",10\" notitle");
    }
    clauses.push_back(
        fmt::format("{:.17g} with lines dt 2 lw 2 lc rgb \"#2ca02c\" title {}", plot.reference,
                    detail::gnuplot_string(plot.reference_name + plot.reference_note)));
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1400,800 font \"Sans,13\"\n"
        "set output \"track.png\"\n"
        "set title {}\n"
        "set xdata time\n"
        "set timefmt \"%Y-%m-%d\"\n"
        "set format x \"%Y-%m-%d\"\n"
        "set xtics rotate by -30\n"
        "set xrange [\"{}\":\"{}\"]\n"
        "set xlabel \"date\"\n"
        "set ylabel {}\n"
        "set grid\n"
        "set key top left box opaque\n"
        "set bmargin 8\n"
        "set label 1 {} at screen 0.5, 0.055 center\n"
        "set label 2 {} at screen 0.5, 0.02 center font \",11\"\n"
        "plot {}\n",
        detail::gnuplot_string(plot.title), date_of(x_min), date_of(x_max),
        detail::gnuplot_string(plot.y_label), detail::gnuplot_string(verdict_line),
        detail::gnuplot_string(detail_line), fmt::format("{}", fmt::join(clauses, ", \\\n     ")));
    scratch.write("track.gp", script);
    util::write_file_atomically(png, detail::render_png(scratch, "track.gp", "track.png"));
}

}  // namespace wdl::report
