#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "wdl/games/chunked_reader.hpp"
#include "wdl/markov/collector.hpp"
#include "wdl/markov/eval_classes.hpp"
#include "wdl/markov/results.hpp"

// markovWDL's printed blocks and their JSON twin (docs/programs.md, docs/formats.md).
namespace wdl::markov {

// How the chains were made, for the lines that say so.
struct ChainDescription {
    const ClassScheme& classes;
    TransitionMode mode = TransitionMode::Own;
    bool per_colour = false;
};

// The lines before the pairings: classes, transitions, empty rows, the model.
std::string format_settings(const ChainDescription& chains, const MarkovResults& results);

// One pairing's block: games and the error's basis, actual score, stationary and model-aware
// predictions with Elo, the cross-fit rows, conformance, empty rows.
std::string format_pairing(const PairingResult& pairing, const ChainDescription& chains);

// The games read and skipped, the cross-fit over all pairings and its verdict.
std::string format_summary(const MarkovResults& results, const CollectedGames& games);

// The JSON document of --json (schema in docs/formats.md).
nlohmann::ordered_json results_json(const ChainDescription& chains, const MarkovResults& results,
                                    const CollectedGames& games, const games::ReadSummary& files,
                                    double seconds);

}  // namespace wdl::markov
