#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "wdl/report/summary_plot.hpp"

// The (eval, mom) maps of the summary plot: measured fractions on a coarse grid, resampled
// onto a fine grid for smooth filled contours.
namespace wdl::report::detail {

// The contour levels of the original scoreWDL; the filled bands lie between them.
inline constexpr std::array<double, 9> contour_levels = {0,    0.05, 0.1,  0.25, 0.5,
                                                         0.75, 0.9,  0.97, 1};

// Equally spaced sample points from `min` to `max`, both included.
struct Axis {
    double min = 0, max = 1;
    int points = 2;

    double step() const { return (max - min) / (points - 1); }
    double at(int index) const { return min + index * step(); }
};

// Values at the points of an x-by-y grid; NaN where undefined.
struct Grid {
    Axis x, y;
    std::vector<double> values;  // x varies fastest

    double& at(int ix, int iy) { return values[static_cast<std::size_t>(iy) * x.points + ix]; }
    double at(int ix, int iy) const { return values[static_cast<std::size_t>(iy) * x.points + ix]; }
};

struct MeasuredFractions {
    Grid wins, draws;
};

// Adds each cell's counts to its nearest grid point (cells beyond half a step outside the
// grid are ignored) and returns the fractions of wins and draws there: NaN without data.
// Pooling neighbouring cells is the counterpart of the original's linear interpolation of
// the scattered per-cell fractions, and gives each fraction a useful sample size.
MeasuredFractions measure_fractions(const std::vector<CountCell>& cells, const Axis& eval,
                                    const Axis& mom);

// `coarse` bilinearly interpolated onto `fine`'s axes. A fine point is NaN when its nearest
// coarse point is; otherwise missing corners are left out of the interpolation.
Grid resample(const Grid& coarse, const Axis& fine_x, const Axis& fine_y);

// A function of (eval, mom) sampled on the given axes.
Grid sample(const Axis& x, const Axis& y, const std::function<double(double, double)>& f);

// Index of the filled band (0 .. contour_levels.size() - 2) that holds a fraction.
int band_of(double fraction);

// Text for gnuplot: "x y value band" per point, a blank line after each row of constant y.
// The band column is band_of(value) + 0.5 so that it lands inside its palette step.
std::string grid_data_text(const Grid& grid);

}  // namespace wdl::report::detail
