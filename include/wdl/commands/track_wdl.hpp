#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/fit/tracking.hpp"

// trackWDL: the eval scale over time, window by window (docs/tracking.md).
namespace wdl::commands {

struct TrackWdlOptions {
    std::vector<std::filesystem::path> files;  // labelled count files, or any count files
    // Count files of the Base engine's moves of the same tests (scanned alike with --matchEngine):
    // then `files` are New's, and each window reports New's scale against Base's.
    std::vector<std::filesystem::path> against;
    fit::WindowBy by = fit::WindowBy::Month;
    int every = 10;                              // tests per window with --by tests
    std::optional<int> normalize_to_pawn_value;  // the engine's normalization, as scoreWDL's
    std::optional<std::string> normalize_data;
    fit::GridFilter filter;
    int mom_target = 58;
    std::vector<int> moms{30, 78};  // a(m) and b(m) are reported at these
    fit::ResampleMethod resample = fit::ResampleMethod::Jackknife;
    int bootstrap_resamples = 200;
    std::uint64_t seed = 1;
    double confidence = 0.95;
    int threads = 1;
    std::optional<std::filesystem::path> json, csv, png;
};

// Reads the units, fits every window and the drift, prints the table and the verdict, writes
// the JSON, CSV and plot. Throws wdl::Error for bad options and inputs.
void track_wdl(const TrackWdlOptions& options);

}  // namespace wdl::commands
