#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// scaleWDL's plot: per test and pooled, how much larger New's evals are than Base's, and how
// much larger each engine's evals are for the side ahead than for the side behind (plain data;
// scaleWDL fills it).
namespace wdl::report {

// A ratio with its interval, drawn as the percent by which it exceeds 1.
struct RatioInterval {
    double ratio = 1, low = 1, high = 1;
};

struct ScaleRow {
    std::string label;  // "test 2415af9d", "pooled: 3 tests"
    bool pooled = false;
    std::optional<RatioInterval> scale;                     // NormalizeToPawnValue New / Base
    std::array<std::optional<RatioInterval>, 2> asymmetry;  // New, Base: ahead / behind
};

struct ScalePlot {
    std::string title;
    double confidence = 0.95;
    std::vector<ScaleRow> rows;  // drawn top to bottom
};

// Two panels side by side, a row per test and pooled set with its interval: New's scale
// against Base's, and each engine's side ahead against its side behind. Written atomically;
// throws wdl::Error when gnuplot fails, std::invalid_argument without rows.
void write_scale_plot(const ScalePlot& plot, const std::filesystem::path& png);

}  // namespace wdl::report
