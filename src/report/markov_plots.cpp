#include "wdl/report/markov_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

constexpr std::array<const char*, 2> kEngineColors = {"#d62728", "#1f77b4"};
// Error bars span the 95% interval of a normal estimate.
constexpr double kErrorBarHalfWidth = 1.959963984540054;

std::string matrix_text(const std::vector<std::vector<double>>& matrix) {
    std::string text;
    for (const auto& row : matrix) {
        for (std::size_t j = 0; j < row.size(); ++j)
            text += fmt::format("{}{:.9g}", j == 0 ? "" : " ", row[j]);
        text += "\n";
    }
    return text;
}

// set xtics ("label" 0, ...) for the classes, and the same for the y axis if asked.
std::string class_tics(const std::vector<std::string>& labels, const char* axis) {
    std::string tics = fmt::format("set {}tics (", axis);
    for (std::size_t i = 0; i < labels.size(); ++i)
        tics += fmt::format("{}{} {}", i == 0 ? "" : ", ", detail::gnuplot_string(labels[i]), i);
    return tics + ")\n";
}

double finite_or(double value, double fallback) { return std::isfinite(value) ? value : fallback; }

}  // namespace

void write_matrix_heatmaps(const MatrixHeatmaps& heatmaps, const std::filesystem::path& png) {
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::size_t n = heatmaps.labels.size();
    std::vector<std::vector<double>> difference(n, std::vector<double>(n, 0.0));
    double largest = 1e-3;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            difference[i][j] = heatmaps.matrices[0][i][j] - heatmaps.matrices[1][i][j];
            largest = std::max(largest, std::abs(difference[i][j]));
        }
    scratch.write("first.dat", matrix_text(heatmaps.matrices[0]));
    scratch.write("second.dat", matrix_text(heatmaps.matrices[1]));
    scratch.write("difference.dat", matrix_text(difference));
    std::string axes = fmt::format(
        "set xrange [-0.5:{0}-0.5]; set yrange [-0.5:{0}-0.5]\n"
        "set size ratio 1\nset xtics rotate by 90 right font \",9\"\nset ytics font \",9\"\n"
        "set xlabel 'to class (own view)'; set ylabel 'from class (own view)'\n",
        n);
    axes += class_tics(heatmaps.labels, "x") + class_tics(heatmaps.labels, "y");
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 2100,820 font \"Sans,12\"\n"
        "set output 'heatmaps.png'\n"
        "set multiplot layout 1,3 title {} font \",16\"\n{}",
        detail::gnuplot_string(heatmaps.title), axes);
    for (int engine = 0; engine < 2; ++engine) {
        script += fmt::format(
            "set title {}\nset logscale cb; set cbrange [1e-4:1]; set format cb '%.0e'\n"
            "set palette defined (0 'white', 1 '#fee391', 2 '#fe9929', 3 '#cc4c02', 4 "
            "'#662506')\nplot '{}' matrix with image notitle\n",
            detail::gnuplot_string(heatmaps.names[std::size_t(engine)] +
                                   ": P(to | from), log colours"),
            engine == 0 ? "first.dat" : "second.dat");
    }
    script += fmt::format(
        "set title {}\nunset logscale cb; set format cb '%g'; set cbrange [{}:{}]\n"
        "set palette defined (-1 '#2166ac', 0 'white', 1 '#b2182b')\n"
        "plot 'difference.dat' matrix with image notitle\nunset multiplot\n",
        detail::gnuplot_string(heatmaps.names[0] + " minus " + heatmaps.names[1]), -largest,
        largest);
    scratch.write("heatmaps.gp", script);
    util::write_file_atomically(png, detail::render_png(scratch, "heatmaps.gp", "heatmaps.png"));
}

void write_class_profiles(const ClassProfiles& profiles, const std::filesystem::path& png) {
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    std::string data;
    for (std::size_t i = 0; i < profiles.labels.size(); ++i) {
        // gnuplot skips a NaN point; its lines join the points on either side.
        data += fmt::format("{} {:.9g} {:.9g} {} {}\n", i, profiles.occupancy[0][i],
                            profiles.occupancy[1][i],
                            std::isfinite(profiles.mean_drop[0][i])
                                ? fmt::format("{:.9g}", profiles.mean_drop[0][i])
                                : "NaN",
                            std::isfinite(profiles.mean_drop[1][i])
                                ? fmt::format("{:.9g}", profiles.mean_drop[1][i])
                                : "NaN");
    }
    scratch.write("profiles.dat", data);
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1800,750 font \"Sans,12\"\n"
        "set output 'profiles.png'\n"
        "set multiplot layout 1,2 title {} font \",16\"\n"
        "set grid ytics\nset xtics rotate by 90 right font \",9\"\n{}"
        "set xrange [-0.6:{}-0.4]\nset key top left box opaque\n"
        "set style fill solid 0.7 noborder\nset boxwidth 0.38\n"
        "set title 'Share of each engine''s moves made from each class (own eval)'\n"
        "set xlabel 'class of the own eval before the move'; set ylabel 'share of moves'\n"
        "set yrange [0:*]\n"
        "plot 'profiles.dat' using ($1-0.2):2 with boxes lc rgb '{}' title {}, \\\n"
        "     '' using ($1+0.2):3 with boxes lc rgb '{}' title {}\n"
        "set title 'Mean positive drop (own eval - opponent''s next eval)'\n"
        "set ylabel 'pawns'\n"
        "plot 'profiles.dat' using 1:4 with linespoints lw 2 pt 7 lc rgb '{}' title {}, \\\n"
        "     '' using 1:5 with linespoints lw 2 pt 5 lc rgb '{}' title {}\n"
        "unset multiplot\n",
        detail::gnuplot_string(profiles.title), class_tics(profiles.labels, "x"),
        profiles.labels.size(), kEngineColors[0], detail::gnuplot_string(profiles.names[0]),
        kEngineColors[1], detail::gnuplot_string(profiles.names[1]), kEngineColors[0],
        detail::gnuplot_string(profiles.names[0]), kEngineColors[1],
        detail::gnuplot_string(profiles.names[1]));
    scratch.write("profiles.gp", script);
    util::write_file_atomically(png, detail::render_png(scratch, "profiles.gp", "profiles.png"));
}

void write_prediction_plot(const PredictionPlot& plot, const std::filesystem::path& png) {
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    // One range for both axes and panels, so that the diagonal is where prediction = actual.
    double low = 0.5, high = 0.5;
    auto widen = [&](double value) {
        if (!std::isfinite(value)) return;
        low = std::min(low, value);
        high = std::max(high, value);
    };
    auto points_text = [&](const std::vector<ScorePoint>& points) {
        std::string text;
        for (const auto& point : points) {
            double half = kErrorBarHalfWidth * finite_or(point.actual_error, 0);
            widen(point.actual - half);
            widen(point.actual + half);
            widen(point.stationary);
            if (point.model) widen(*point.model);
            if (point.baseline) widen(*point.baseline);
            text +=
                fmt::format("{:.9g} {:.9g} {:.9g} {} {}\n", point.actual, half, point.stationary,
                            point.model ? fmt::format("{:.9g}", *point.model) : "NaN",
                            point.baseline ? fmt::format("{:.9g}", *point.baseline) : "NaN");
        }
        return text.empty() ? "NaN NaN NaN NaN NaN\n" : text;
    };
    scratch.write("pairings.dat", points_text(plot.pairings));
    scratch.write("crossfit.dat", points_text(plot.crossfit));
    double margin = std::max(0.02, 0.05 * (high - low));
    std::string panel_items =
        "'{0}' using 1:3:($1-$2):($1+$2) with xerrorbars pt 7 ps 1.3 lc rgb '#d62728' title "
        "'stationary', \\\n"
        "     '' using 1:4:($1-$2):($1+$2) with xerrorbars pt 5 ps 1.2 lc rgb '#1f77b4' title "
        "'model-aware'";
    std::string script = fmt::format(
        "set terminal pngcairo noenhanced size 1700,800 font \"Sans,12\"\n"
        "set output 'predictions.png'\n"
        "set multiplot layout 1,2 title 'Predicted against actual score of New (error bars: 95% "
        "of the actual score)' font \",15\"\n"
        "set grid\nset size ratio 1\nset xrange [{0}:{1}]; set yrange [{0}:{1}]\n"
        "set key top left box opaque\nset xlabel 'actual score'; set ylabel 'predicted score'\n",
        low - margin, high + margin);
    script += "set title 'All games of each pairing (the chains saw these games)'\n";
    script += "plot x with lines lc rgb 'gray' dt 2 title 'prediction = actual', \\\n     " +
              fmt::format(fmt::runtime(panel_items), "pairings.dat") + "\n";
    script +=
        "set title 'Cross-fit: a fold of openings predicted from the other fold'\n"
        "set xlabel 'held-out actual score'\n";
    script += "plot x with lines lc rgb 'gray' dt 2 title 'prediction = actual', \\\n     " +
              fmt::format(fmt::runtime(panel_items), "crossfit.dat") +
              ", \\\n     '' using 1:5:($1-$2):($1+$2) with xerrorbars pt 9 ps 1.3 lc rgb "
              "'#2ca02c' title 'baseline (other fold''s score)'\nunset multiplot\n";
    scratch.write("predictions.gp", script);
    util::write_file_atomically(png,
                                detail::render_png(scratch, "predictions.gp", "predictions.png"));
}

}  // namespace wdl::report
