#pragma once

#include <cstddef>

namespace wdl::fit {

// The fold a group is dealt into, for every held-out comparison: round robin, so that every fold
// holds groups from the whole file (its tests or games in the order they were scanned).
inline int fold_of(std::size_t group, int folds) { return int(group % std::size_t(folds)); }

}  // namespace wdl::fit
