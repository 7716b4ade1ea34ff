#include "wdl/report/summary_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "contour_grid.hpp"
#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

using detail::Axis;
using detail::gnuplot_string;
using detail::Grid;

// Canvas and layout: three columns of panels, the colour box right of the last one.
constexpr int canvas_width = 2400, canvas_height = 1700;
constexpr std::array<double, 3> column_left = {0.045, 0.365, 0.68};
constexpr double column_width = 0.26;
constexpr std::array<double, 2> row_top = {0.895, 0.435};
constexpr double row_height = 0.355;
// Resolution of the win/draw maps: the coarse grid that pools the data (as the original's
// 30 x 22 interpolation grid) and the fine grid the filled contours are drawn from.
constexpr int coarse_eval_points = 30, coarse_mom_points = 22;
constexpr int fine_eval_points = 300, fine_mom_points = 220;
constexpr int curve_samples = 1000;

constexpr const char* eval_label = "Evaluation [lower: Internal Value units, upper: Pawns]";

struct Outcome {
    double win, draw, loss;
};

Outcome model_outcome(const model::WdlModel& model, double eval, double mom) {
    return {model.win(eval, mom), model.draw(eval, mom), model.loss(eval, mom)};
}

// The input normalization's p_a at a mom, unclamped as the fitted curves are drawn.
double input_pawn_scale(const model::DynamicNormalization& normalization, double mom) {
    return model::curve_value(normalization.form, normalization.as, mom / normalization.mom_target);
}

// The plotted eval range spans whole hundreds of internal units that cover the given
// numbers of pawns, as the original's: -((pawns_below * pawn) // 100 + 1) * 100 etc.
Axis eval_axis(int pawns_below, int pawns_above, int pawn_value, int points) {
    auto covering = [pawn_value](int pawns) { return (pawns * pawn_value / 100 + 1) * 100.0; };
    return {-covering(pawns_below), covering(pawns_above), points};
}

Axis mom_axis(const SummaryPlot& plot, int max_points) {
    const int span = std::max(plot.mom_plot_max - plot.mom_plot_min, 1);
    return {double(plot.mom_plot_min), double(plot.mom_plot_min + span),
            std::min(max_points, span + 1)};
}

std::string panel_start(int row, int column) {
    const double left = column_left[column], top = row_top[row];
    return fmt::format(
        "\n# panel row {} column {}\n"
        "unset title; unset key; unset colorbox; unset grid; unset x2tics; unset label\n"
        "set autoscale; set offsets 0, 0, 0, 0\n"
        "set xtics nomirror; set ytics mirror\n"
        "set lmargin at screen {:.4f}; set rmargin at screen {:.4f}\n"
        "set tmargin at screen {:.4f}; set bmargin at screen {:.4f}\n",
        row, column, left, left + column_width, top, top - row_height);
}

// A second x axis in pawns over the internal eval range: a tick every half pawn, labelled
// at whole pawns. With a dynamic normalization these are approximations, as in the original.
std::string pawn_axis(const Axis& eval, int pawn_value) {
    const double half_pawn = pawn_value / 2.0;
    std::string tics;
    for (int z = static_cast<int>(std::ceil(eval.min / half_pawn));
         z <= static_cast<int>(std::floor(eval.max / half_pawn)); ++z) {
        if (!tics.empty()) tics += ", ";
        tics += z % 2 == 0 ? fmt::format("\"{}\" {:.6g}", z / 2, z * half_pawn)
                           : fmt::format("\"\" {:.6g} 1", z * half_pawn);
    }
    return fmt::format("set x2range [{:.6g}:{:.6g}]\nset x2tics out ({})\n", eval.min, eval.max,
                       tics);
}

// Width in pixels of a title in pngcairo's Sans at a font size, measured: digits take 0.8
// pixel per point, the other characters of these titles 0.55 (0.6 leaves room for hinting).
double title_pixels(std::string_view title, int font) {
    const auto digits =
        std::count_if(title.begin(), title.end(), [](char c) { return c >= '0' && c <= '9'; });
    return font * (0.88 * double(digits) + 0.6 * double(title.size() - std::size_t(digits)));
}

// The legend of the parameter panel, whose polynomial titles are nearly as wide as the panel:
// at 10 points, or smaller where the longest title would run past the panel. gnuplot sizes
// the box by a fixed estimate of the character width that Sans falls short of by about 18 %,
// so the box is narrowed by that many characters to fit its text.
std::string parameter_key(const std::string& longest_title) {
    const double room = 0.9 * column_width * canvas_width;  // less the sample line's space
    int font = 10;
    while (font > 6 && title_pixels(longest_title, font) > room) --font;
    const long narrower = std::lround(0.18 * double(longest_title.size()));
    return fmt::format(
        "set key bottom left Left reverse box opaque font \",{}\" samplen 1.5 width -{}\n", font,
        narrower);
}

// A plot command from its items; gnuplot needs at least one, so an empty panel plots NaN.
std::string plot_command(const std::vector<std::string>& items) {
    if (items.empty()) return "plot NaN notitle\n";
    std::string command = "plot " + items.front();
    for (std::size_t i = 1; i < items.size(); ++i) command += ", \\\n     " + items[i];
    return command + "\n";
}

class SummaryScript {
  public:
    SummaryScript(const SummaryPlot& plot, const detail::ScratchDirectory& scratch)
        : plot_(plot), scratch_(scratch) {}

    std::string build(const std::string& png_name) {
        std::string panels = outcome_panel() + parameters_panel();
        for (bool draws : {false, true}) {
            panels += map_panel(draws, false);
            if (plot_.model) panels += map_panel(draws, true);
        }
        return contour_tables_ + label_selection_commands() + terminal_setup(png_name) + panels +
               "unset multiplot\n";
    }

  private:
    std::string terminal_setup(const std::string& png_name) const {
        return fmt::format(
            "set terminal pngcairo noenhanced size {},{} font \"Sans,15\" linewidth 1.5\n"
            "set output {}\n"
            "set style textbox opaque noborder margins 1,1\n"
            "set multiplot title {} font \",26\"\n",
            canvas_width, canvas_height, gnuplot_string(png_name),
            gnuplot_string(plot_.model ? "Summary of win-draw-loss model analysis"
                                       : "Summary of win-draw-loss data"));
    }

    // Top left: measured rates at mom_plot_target, with the model's curves.
    std::string outcome_panel() const {
        const Axis eval = eval_axis(3, 3, plot_.pawn_value, curve_samples);
        std::map<int, Outcome> counts;
        for (const CountCell& cell : plot_.cells) {
            if (cell.mom != plot_.mom_plot_target) continue;
            Outcome& sum = counts[cell.eval];
            sum.win += cell.wins;
            sum.draw += cell.draws;
            sum.loss += cell.losses;
        }
        std::string measured;
        for (const auto& [x, sum] : counts) {
            const double total = sum.win + sum.draw + sum.loss;
            if (total > 0)
                measured += fmt::format("{} {:.6g} {:.6g} {:.6g}\n", x, sum.win / total,
                                        sum.draw / total, sum.loss / total);
        }
        std::vector<std::string> items;
        if (!measured.empty()) {
            scratch_.write("outcome_data.dat", measured);
            items = {
                "'outcome_data.dat' using 1:2 with points pt 7 ps 0.9 lc rgb 'blue' title "
                "'Measured winrate'",
                "'' using 1:3 with points pt 7 ps 0.9 lc rgb 'dark-green' title "
                "'Measured drawrate'",
                "'' using 1:4 with points pt 7 ps 0.9 lc rgb 'dark-cyan' title "
                "'Measured lossrate'"};
        }
        std::string title =
            fmt::format("easured data at {} {}", plot_.mom_name, plot_.mom_plot_target);
        if (plot_.model) {
            std::string curves;
            for (int i = 0; i < eval.points; ++i) {
                const Outcome rates =
                    model_outcome(plot_.model->model, eval.at(i), plot_.mom_plot_target);
                curves += fmt::format("{:.6g} {:.6g} {:.6g} {:.6g}\n", eval.at(i), rates.win,
                                      rates.draw, rates.loss);
            }
            scratch_.write("outcome_model.dat", curves);
            items.push_back(
                "'outcome_model.dat' using 1:2 with lines lw 2 lc rgb 'red' title "
                "'Model'");
            items.push_back("'' using 1:3 with lines lw 2 lc rgb 'red' notitle");
            items.push_back("'' using 1:4 with lines lw 2 lc rgb 'red' notitle");
            title = "Comparison of model and m" + title;
        } else {
            title = "M" + title;
        }
        return panel_start(0, 0) + pawn_axis(eval, plot_.pawn_value) +
               fmt::format(
                   "set title {} font \",18\"\n"
                   "set xrange [{:.6g}:{:.6g}]; set yrange [-0.05:1.05]\n"
                   "set xlabel {}; set ylabel \"outcome\"\n"
                   "set key top center Left reverse box opaque font \",13\"\n",
                   gnuplot_string(title), eval.min, eval.max, gnuplot_string(eval_label)) +
               plot_command(items);
    }

    // Bottom left: the local fits a(mom), b(mom) with the fitted polynomials.
    std::string parameters_panel() const {
        if (!plot_.model) return {};
        const FittedModel& model = *plot_.model;
        std::string points;
        const std::size_t count =
            std::min({model.local_moms.size(), model.local_as.size(), model.local_bs.size()});
        for (std::size_t i = 0; i < count; ++i)
            points += fmt::format("{} {:.6g} {:.6g}\n", model.local_moms[i], model.local_as[i],
                                  model.local_bs[i]);

        auto [low, high] = std::minmax_element(model.local_moms.begin(), model.local_moms.end());
        const Axis moms = count > 0 ? Axis{double(*low), double(*high), 200} : mom_axis(plot_, 200);
        std::string curves;
        for (int i = 0; i < moms.points; ++i) {
            const double mom = moms.at(i);
            curves += fmt::format(
                "{:.6g} {:.6g} {:.6g} {:.6g}\n", mom, model.model.a(mom), model.model.b(mom),
                model.input_normalization ? input_pawn_scale(*model.input_normalization, mom)
                                          : 0.0);
        }
        scratch_.write("parameter_curves.dat", curves);

        const int target = model.model.mom_target;
        const std::string p_a_title =
            "p_a = " + model::curve_text(model.model.a_form, model.model.as, target);
        const std::string p_b_title =
            "p_b = " + model::curve_text(model.model.b_form, model.model.bs, target);
        std::vector<std::string> items;
        if (count > 0) {
            scratch_.write("local_fits.dat", points);
            items.push_back(
                "'local_fits.dat' using 1:2 with points pt 7 ps 0.9 lc rgb 'blue' title 'as'");
        }
        items.push_back("'parameter_curves.dat' using 1:2 with lines lw 3 lc rgb 'red' title " +
                        gnuplot_string(p_a_title));
        if (model.input_normalization)
            items.push_back(
                "'parameter_curves.dat' using 1:4 with lines dt 2 lw 2 lc rgb 'light-coral' "
                "title \"p_a of the input data's model\"");
        if (count > 0)
            items.push_back(
                "'local_fits.dat' using 1:3 with points pt 7 ps 0.9 lc rgb 'dark-green' title "
                "'bs'");
        items.push_back("'parameter_curves.dat' using 1:3 with lines lw 2 lc rgb 'magenta' title " +
                        gnuplot_string(p_b_title));

        return panel_start(1, 0) +
               fmt::format(
                   "set title \"Winrate model parameters\" font \",18\"\n"
                   "set offsets graph 0.03, graph 0.03, 0, 0\n"
                   "set yrange [0:*]\n"
                   "set xtics mirror\n"
                   "set xlabel {}; set ylabel \"parameters (in internal value units)\"\n",
                   gnuplot_string(plot_.mom_name)) +
               parameter_key(std::max(p_a_title, p_b_title,
                                      [](const auto& x, const auto& y) {
                                          return title_pixels(x, 10) < title_pixels(y, 10);
                                      })) +
               plot_command(items);
    }

    // Middle (wins) and right (draws) columns: data on top, model below.
    std::string map_panel(bool draws, bool model) {
        const int column = draws ? 2 : 1;
        const std::string outcome = draws ? "draw" : "win";
        const std::string name = outcome + (model ? "_model" : "_data");
        const Axis fine_eval = draws ? eval_axis(2, 2, plot_.pawn_value, fine_eval_points)
                                     : eval_axis(1, 3, plot_.pawn_value, fine_eval_points);
        const Axis fine_mom = mom_axis(plot_, fine_mom_points);

        const Grid grid = model ? model_grid(draws, fine_eval, fine_mom)
                                : detail::resample(measured_grid(draws), fine_eval, fine_mom);
        const bool has_values = std::any_of(grid.values.begin(), grid.values.end(),
                                            [](double v) { return !std::isnan(v); });
        std::vector<std::string> items;
        if (has_values) {
            scratch_.write(name + ".dat", detail::grid_data_text(grid));
            add_contour_table(name);
            items = {
                fmt::format("'{}.dat' using 1:2:4 with image notitle", name),
                fmt::format("'{}.contours' using 1:2 with lines lw 1.5 lc rgb 'black' notitle",
                            name),
                "'' using 1:(labelled_point($0, $3) ? $2 : NaN):(sprintf('%.2f', $3)) with labels "
                "boxed font \",12\" notitle"};
        }
        const std::string mom_label =
            plot_.mom_name == "material" ? "material (1,3,3,5,9)" : plot_.mom_name;
        // Only the last panel drawn shows the colour box, right of the whole grid.
        const bool last_panel = draws && (model || !plot_.model);
        return panel_start(model ? 1 : 0, column) + pawn_axis(fine_eval, plot_.pawn_value) +
               fmt::format(
                   "set title {} font \",18\"\n"
                   "set xrange [{:.6g}:{:.6g}]; set yrange [{:.6g}:{:.6g}]\n"
                   "set xlabel {}; set ylabel {}\n"
                   "set grid front xtics ytics lt 1 lw 1 lc rgb '#a0a0a0'\n"
                   "{}{}",
                   gnuplot_string((model ? "Model" : "Data") +
                                  std::string(": Fraction of positions leading to a ") + outcome),
                   fine_eval.min, fine_eval.max, fine_mom.min, fine_mom.max,
                   gnuplot_string(eval_label), gnuplot_string(mom_label), palette_commands(),
                   last_panel ? colorbox_commands() : "") +
               plot_command(items);
    }

    Grid measured_grid(bool draws) const {
        const Axis eval = draws ? eval_axis(2, 2, plot_.pawn_value, coarse_eval_points)
                                : eval_axis(1, 3, plot_.pawn_value, coarse_eval_points);
        detail::MeasuredFractions fractions =
            detail::measure_fractions(plot_.cells, eval, mom_axis(plot_, coarse_mom_points));
        return draws ? std::move(fractions.draws) : std::move(fractions.wins);
    }

    Grid model_grid(bool draws, const Axis& eval, const Axis& mom) const {
        const model::WdlModel& model = plot_.model->model;
        return detail::sample(eval, mom, [&model, draws](double x, double m) {
            const Outcome rates = model_outcome(model, x, m);
            return draws ? rates.draw : rates.win;
        });
    }

    // gnuplot traces the contour lines into a table file before the multiplot starts.
    void add_contour_table(const std::string& name) {
        std::string levels;
        for (std::size_t i = 1; i + 1 < detail::contour_levels.size(); ++i)
            levels += fmt::format("{}{}", i > 1 ? "," : "", detail::contour_levels[i]);
        contour_tables_ += fmt::format(
            "set contour base; unset surface; set cntrparam linear levels discrete {}\n"
            "set table '{}.contours'\n"
            "splot '{}.dat' using 1:2:3 with lines notitle\n"
            "unset table; unset contour; set surface\n",
            levels, name, name);
    }

    // One flat colour per band between contour levels (viridis, as matplotlib's default).
    static std::string palette_commands() {
        static constexpr std::array<const char*, 8> colors = {
            "#440154", "#46327e", "#365c8d", "#277f8e", "#1fa187", "#4ac16d", "#a0da39", "#fde725"};
        std::string palette, tics;
        for (std::size_t band = 0; band < colors.size(); ++band)
            palette += fmt::format("{}{} '{}', {} '{}'", band ? ", " : "", band, colors[band],
                                   band + 1, colors[band]);
        for (std::size_t i = 0; i < detail::contour_levels.size(); ++i)
            tics += fmt::format("{}\"{:.2f}\" {}", i ? ", " : "", detail::contour_levels[i], i);
        return fmt::format("set palette defined ({})\nset cbrange [0:{}]\nset cbtics ({})\n",
                           palette, colors.size(), tics);
    }

    // Labels sit every label_period points along each contour line, starting at a point that
    // depends on the level, so that the labels of neighbouring parallel lines do not collide.
    static std::string label_selection_commands() {
        constexpr int label_period = 120, label_stagger = 15;
        std::string start = fmt::format("{}", label_period - 1);
        for (std::size_t i = detail::contour_levels.size() - 2; i >= 1; --i)
            start = fmt::format("v < {:.4g} ? {} : {}",
                                (detail::contour_levels[i] + detail::contour_levels[i + 1]) / 2,
                                label_stagger * i, start);
        return fmt::format("labelled_point(i, v) = int(i) % {} == ({})\n", label_period, start);
    }

    static std::string colorbox_commands() {
        return "set colorbox user origin screen 0.955, screen 0.25 size screen 0.014, "
               "screen 0.5\n";
    }

    const SummaryPlot& plot_;
    const detail::ScratchDirectory& scratch_;
    std::string contour_tables_;
};

}  // namespace

void write_summary_plot(const SummaryPlot& plot, const std::filesystem::path& png) {
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    const std::string png_name = "summary.png";
    scratch.write("summary.gp", SummaryScript(plot, scratch).build(png_name));
    util::write_file_atomically(png, detail::render_png(scratch, "summary.gp", png_name));
}

}  // namespace wdl::report
