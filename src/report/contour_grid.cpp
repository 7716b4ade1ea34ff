#include "contour_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace wdl::report::detail {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The grid index nearest to `value`, or -1 when it lies more than half a step outside.
int nearest_index(const Axis& axis, double value) {
    const double position = std::round((value - axis.min) / axis.step());
    if (position < 0 || position >= axis.points) return -1;
    return static_cast<int>(position);
}

Grid empty_grid(const Axis& x, const Axis& y, double fill) {
    return Grid{x, y, std::vector<double>(static_cast<std::size_t>(x.points) * y.points, fill)};
}

}  // namespace

MeasuredFractions measure_fractions(const std::vector<CountCell>& cells, const Axis& eval,
                                    const Axis& mom) {
    Grid wins = empty_grid(eval, mom, 0), draws = empty_grid(eval, mom, 0),
         totals = empty_grid(eval, mom, 0);
    for (const CountCell& cell : cells) {
        const int ix = nearest_index(eval, cell.eval), iy = nearest_index(mom, cell.mom);
        if (ix < 0 || iy < 0) continue;
        wins.at(ix, iy) += cell.wins;
        draws.at(ix, iy) += cell.draws;
        totals.at(ix, iy) += cell.wins + cell.draws + cell.losses;
    }
    for (std::size_t i = 0; i < totals.values.size(); ++i) {
        const double total = totals.values[i];
        wins.values[i] = total > 0 ? wins.values[i] / total : nan;
        draws.values[i] = total > 0 ? draws.values[i] / total : nan;
    }
    return {std::move(wins), std::move(draws)};
}

Grid resample(const Grid& coarse, const Axis& fine_x, const Axis& fine_y) {
    Grid fine = empty_grid(fine_x, fine_y, nan);
    for (int fy = 0; fy < fine_y.points; ++fy) {
        const double y = std::clamp((fine_y.at(fy) - coarse.y.min) / coarse.y.step(), 0.0,
                                    coarse.y.points - 1.0);
        const int y0 = std::min(static_cast<int>(y), coarse.y.points - 2);
        const double ty = y - y0;
        for (int fx = 0; fx < fine_x.points; ++fx) {
            const double x = std::clamp((fine_x.at(fx) - coarse.x.min) / coarse.x.step(), 0.0,
                                        coarse.x.points - 1.0);
            const int x0 = std::min(static_cast<int>(x), coarse.x.points - 2);
            const double tx = x - x0;
            if (std::isnan(
                    coarse.at(static_cast<int>(std::round(x)), static_cast<int>(std::round(y)))))
                continue;
            double weighted_sum = 0, weight_sum = 0;
            for (const auto& [dx, dy] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}}) {
                const double value = coarse.at(x0 + dx, y0 + dy);
                const double weight = (dx ? tx : 1 - tx) * (dy ? ty : 1 - ty);
                if (std::isnan(value) || weight == 0) continue;
                weighted_sum += weight * value;
                weight_sum += weight;
            }
            fine.at(fx, fy) = weighted_sum / weight_sum;
        }
    }
    return fine;
}

Grid sample(const Axis& x, const Axis& y, const std::function<double(double, double)>& f) {
    Grid grid = empty_grid(x, y, nan);
    for (int iy = 0; iy < y.points; ++iy)
        for (int ix = 0; ix < x.points; ++ix) grid.at(ix, iy) = f(x.at(ix), y.at(iy));
    return grid;
}

int band_of(double fraction) {
    const auto upper =
        std::upper_bound(contour_levels.begin() + 1, contour_levels.end() - 1, fraction);
    return static_cast<int>(std::distance(contour_levels.begin() + 1, upper));
}

std::string grid_data_text(const Grid& grid) {
    std::string text;
    auto out = std::back_inserter(text);
    for (int iy = 0; iy < grid.y.points; ++iy) {
        for (int ix = 0; ix < grid.x.points; ++ix) {
            const double value = grid.at(ix, iy);
            if (std::isnan(value))
                fmt::format_to(out, "{:.6g} {:.6g} NaN NaN\n", grid.x.at(ix), grid.y.at(iy));
            else
                fmt::format_to(out, "{:.6g} {:.6g} {:.6g} {}.5\n", grid.x.at(ix), grid.y.at(iy),
                               value, band_of(value));
        }
        text += '\n';
    }
    return text;
}

}  // namespace wdl::report::detail
