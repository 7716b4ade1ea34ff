#pragma once

#include <functional>

#include "wdl/tablebase/table.hpp"

namespace wdl::tablebase {

// The tables a generation reads for captures and promotions (canonical materials).
using SubtableLookup = std::function<const Table*(const Material&)>;

struct GenerationStats {
    int levels = 0;           // depth levels of the retrograde loop
    std::uint64_t positions;  // legal positions (both sides to move, symmetry-reduced)
};

// Computes the table of a canonical material of at most kMaxMen men by retrograde analysis
// with OpenMP (threads <= 0: OpenMP's default). The result is the same for any number of
// threads. Throws wdl::Error, naming the table, if a subtable is missing or cannot serve, or if
// anything fails in an OpenMP worker (carried out of its region: it never ends the process).
Table generate_table(const Material& material, Metric metric, const SubtableLookup& subtables,
                     int threads = 0, GenerationStats* stats = nullptr);

}  // namespace wdl::tablebase
