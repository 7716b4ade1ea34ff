#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// compareWDL: compares WDL models (docs/programs.md).
namespace wdl::commands {

struct CompareWdlOptions {
    std::vector<std::string> models;  // registry names, model files, Stockfish trees or DIR@REV
    bool list = false;                // print the registry instead
    std::vector<double> moms;         // of the first model; empty: a default set
    std::vector<double> evals{0, 0.5, 1, 2, 3};
    bool plot = true;
    std::filesystem::path png_name = "compareWDL.png";
    std::optional<std::filesystem::path> json;
};

// Prints the comparison (or the registry) on stdout, writes the plot and the JSON. Throws
// wdl::Error for unknown or malformed models and for --moms that a model cannot be read at.
void compare_wdl(const CompareWdlOptions& options);

}  // namespace wdl::commands
