#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/fit/count_grid.hpp"

// compareWDL: compares WDL models (docs/programs.md).
namespace wdl::commands {

struct CompareWdlOptions {
    std::vector<std::string> models;  // registry names, model files, Stockfish trees or DIR@REV
    bool list = false;                // print the registry instead
    // --history CLONE: read the registry from a Stockfish clone's history instead, and write it
    // to `output` if given.
    std::optional<std::filesystem::path> history;
    std::optional<std::filesystem::path> output;
    std::vector<double> moms;  // of the first model; empty: a default set
    std::vector<double> evals{0, 0.5, 1, 2, 3};
    bool plot = true;
    std::filesystem::path png_name = "compareWDL.png";
    std::optional<std::filesystem::path> json;
    // --counts: score the models on these count files (added up; plain or grouped).
    std::vector<std::filesystem::path> counts;
    // --fit OLD NEW: fit both count files and compare the fits.
    std::vector<std::filesystem::path> fit;
    // How the counts' displayed evals become internal ones, as scoreWDL takes it.
    std::optional<int> normalize_to_pawn_value;
    std::optional<std::string> normalize_data;
    fit::GridFilter filter;  // which positions are retained, as scoreWDL's options
    int mom_target = 58;
    int threads = 1;  // for the refits of --fit's jackknife
};

// Prints the comparison (or the registry, or the registry read by --history) on stdout, then the
// models' scores on --counts and the comparison of the --fit fits, writes the plot and the JSON.
// Throws wdl::Error for unknown or malformed models, --moms that a model cannot be read at, and
// unreadable counts.
void compare_wdl(const CompareWdlOptions& options);

}  // namespace wdl::commands
