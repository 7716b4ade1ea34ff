#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "wdl/human/human_model.hpp"

// humanWDL: the rating-aware model of human games fitted from a human-games count file
// (scoreWDLstat --human), its form chosen on held-out games, and compared with lichess's Win%,
// lc0's Elo-dependent sharpness and Stockfish's model (docs/human-games.md).
namespace wdl::commands {

struct HumanWdlOptions {
    std::string counts;                   // the human-games count file
    std::vector<human::HumanForm> forms;  // the forms to choose from; empty: every form
    int folds = 8;                        // of the groups, for the choice and the comparison
    double confidence = 0.95;
    int threads = 1;
    std::string stockfish = "sf";       // the Stockfish model compared (a registry name)
    std::optional<std::string> output;  // the model file (-o)
    std::optional<std::string> json;    // the report as JSON; "-" prints only it, on stdout
    // Per class fitted: PREFIX-<class>-curves.png (expected score against the eval per rating
    // band beside lichess's curve) and PREFIX-<class>-reliability.png.
    std::optional<std::string> plots;
    // Megabytes the count file's cells may take (human::kBytesPerCountCell each); beyond them
    // only the file's first game groups are fitted. Default default_human_fit_memory_limit().
    std::optional<std::size_t> memory_limit;
};

// Half of the machine's memory (4096 MB where the system does not say).
std::size_t default_human_fit_memory_limit();

// Prints, per speed class with enough games, the choice of form, the fitted parameters with
// their jackknife intervals and the comparison table; a class with too few says so instead.
// Throws wdl::Error for an unreadable count file or when no class has enough games.
void human_wdl(const HumanWdlOptions& options);

}  // namespace wdl::commands
