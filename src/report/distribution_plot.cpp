#include "wdl/report/distribution_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "gnuplot_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::report {
namespace {

// "mom wins draws losses" per line.
std::string counts_text(const Distribution& distribution) {
    std::string text;
    for (std::size_t i = 0; i < distribution.moms.size(); ++i)
        text += fmt::format("{} {:.17g} {:.17g} {:.17g}\n", distribution.moms[i],
                            distribution.wins[i], distribution.draws[i], distribution.losses[i]);
    return text;
}

std::string distribution_script(const Distribution& distribution, const std::string& png_name) {
    const auto [low, high] =
        std::minmax_element(distribution.moms.begin(), distribution.moms.end());
    // Each bar is a box from its bottom to its top, so the stack needs no drawing order.
    return fmt::format(
        "set terminal pngcairo noenhanced size 1200,900 font \"Sans,15\"\n"
        "set output {}\n"
        "set title \"Distribution of Wins, Draws, and Losses\" font \",18\"\n"
        "set xlabel {}; set ylabel \"Number of Positions\"\n"
        "set xrange [{}:{}]; set yrange [0:*]\n"
        "set xtics nomirror out; set xtics add ({}, {})\n"
        "set ytics nomirror out\n"
        "set key top left Left reverse box opaque\n"
        "set style fill solid 1.0 noborder\n"
        "bar = 0.4\n"
        "plot 'counts.dat' using 1:2:($1-bar):($1+bar):(0):2 with boxxyerror lc rgb 'blue' "
        "title 'Wins', \\\n"
        "     '' using 1:($2+$3):($1-bar):($1+bar):2:($2+$3) with boxxyerror "
        "lc rgb 'light-green' title 'Draws', \\\n"
        "     '' using 1:($2+$3+$4):($1-bar):($1+bar):($2+$3):($2+$3+$4) with boxxyerror "
        "lc rgb 'red' title 'Losses'\n",
        detail::gnuplot_string(png_name), detail::gnuplot_string(distribution.mom_name), *low - 1,
        *high + 1, *low, *high);
}

}  // namespace

void write_distribution_plot(const Distribution& distribution, const std::filesystem::path& png) {
    const std::size_t count = distribution.moms.size();
    if (count == 0 || distribution.wins.size() != count || distribution.draws.size() != count ||
        distribution.losses.size() != count)
        throw std::invalid_argument(
            "distribution plot needs equally many moms, wins, draws and losses (at least one)");
    detail::require_target_directory(png);
    detail::ScratchDirectory scratch;
    const std::string png_name = "distribution.png";
    scratch.write("counts.dat", counts_text(distribution));
    scratch.write("distribution.gp", distribution_script(distribution, png_name));
    util::write_file_atomically(png, detail::render_png(scratch, "distribution.gp", png_name));
}

}  // namespace wdl::report
