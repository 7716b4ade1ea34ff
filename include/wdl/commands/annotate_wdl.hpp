#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/annotate/annotator.hpp"

// annotateWDL: PGN with position and move symbols from a WDL model (docs/programs.md).
namespace wdl::commands {

struct AnnotateWdlOptions {
    std::vector<std::filesystem::path> inputs;  // .pgn, .pgn.gz, .pgn.zst
    std::filesystem::path output = "annotated.pgn";
    std::string model = "sf";  // a registry name, a scoreWDL --json file, a Stockfish source
    // How the engine displayed its evals, as scoreWDL takes it, for games of another engine than
    // the model's (default: the model's display rule).
    std::optional<int> normalize_to_pawn_value;
    std::optional<std::string> normalize_data;
    annotate::ScoreFunction function = annotate::ScoreFunction::Model;
    annotate::AnnotateSettings settings;
    std::optional<std::filesystem::path> json;
    // The model's expected score and Konrod's against the displayed eval, at the target mom.
    std::optional<std::filesystem::path> plot;
};

// Annotates every input into the output (atomically), prints a line per game copied unchanged
// (on stderr) and the summary. Throws wdl::Error for a bad model or an unreadable input.
void annotate_wdl(const AnnotateWdlOptions& options);

}  // namespace wdl::commands
