#pragma once

#include <vector>

#include "wdl/fit/count_grid.hpp"

// The retained counts regrouped for fitting: per mom, only the evals that hold data.
namespace wdl::fit {

struct Cell {
    double eval = 0;  // internal units
    double wins = 0, draws = 0, losses = 0;
    double total() const { return wins + draws + losses; }
};

struct MomData {
    int mom = 0;
    double wins = 0, total = 0;  // sums over the cells
    std::vector<Cell> cells;     // ascending eval, every cell with a non-zero total
};

// One entry per mom of the grid, in ascending order (moms without data have no cells).
std::vector<MomData> collect_mom_data(const CountGrid& grid);

}  // namespace wdl::fit
