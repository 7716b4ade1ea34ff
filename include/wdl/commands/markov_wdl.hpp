#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/markov/collector.hpp"

// markovWDL: eval-class Markov chains per engine and pairing (docs/programs.md).
namespace wdl::commands {

struct MarkovWdlOptions {
    games::GameSelection games;
    std::optional<std::string> match_engine;  // default: --matchRev
    std::optional<std::filesystem::path> fix_fen_source;
    games::EvalParsing eval_parsing = games::EvalParsing::Exact;
    int concurrency = 1;
    // log19, linear10, model, or bounds in pawns ("0,0.25,0.5,1,2": a leading 0 adds an
    // exact-0 class).
    std::string classes = "log19";
    std::string class_model = "sf18";  // for --classes model
    int class_count = 19;              // for --classes model
    markov::TransitionMode transitions = markov::TransitionMode::Own;
    bool per_colour = false;
    std::optional<std::string> model;  // the W/D/L per class; default: fitted to the games
    std::optional<std::filesystem::path> json;
    std::optional<std::filesystem::path> plot_dir;
};

// Reads the games, prints the settings, a block per pairing and the summary on stdout (warnings
// and the progress line on stderr), writes the JSON and the plots. Throws wdl::Error for bad
// options and when nothing usable was read.
void markov_wdl(const MarkovWdlOptions& options);

}  // namespace wdl::commands
