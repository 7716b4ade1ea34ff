#pragma once

#include <filesystem>
#include <optional>
#include <vector>

// mergeWDLstat: adds count files into one (docs/programs.md).
namespace wdl::commands {

struct MergeWdlStatOptions {
    std::vector<std::filesystem::path> inputs;
    std::filesystem::path output = "scoreWDLstat.json";
    std::optional<int> bin_width;  // asserted instead of inferred from the evals
    std::optional<std::filesystem::path> json;
};

// Reads and adds the inputs, writes the sum (plain or grouped, as the inputs) atomically, and
// prints a line per input and a summary line. Throws wdl::Error, leaving no output, when an
// input cannot be read or the inputs do not go together.
void merge_wdl_stat(const MergeWdlStatOptions& options);

}  // namespace wdl::commands
