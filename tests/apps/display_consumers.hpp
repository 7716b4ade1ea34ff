#pragma once

#include <filesystem>
#include <string>
#include <vector>

// The W/D/L per mille that each consumer of a model gives a displayed eval: queryWDL --evals and
// every export language's from_cp (the Python module's cp_wdl, python-chess's way). The display
// tests (test_display_eras.cpp) check them against Stockfish's own arithmetic and the engine.
namespace wdl::testing {

struct CpQuery {
    double cp;     // displayed centipawns
    int ply;       // the position's ply (game_ply); queryWDL takes move ply / 2 + 1
    int material;  // P + 3N + 3B + 5R + 9Q of both sides
};

struct PerMille {
    int win = 0, draw = 0, loss = 0;
};

// The consumers: "queryWDL", then "cpp", "c", "rust", "python", "javascript" (exportWDL's
// languages, each where its tool is installed; see installed_consumers).
std::vector<std::string> installed_consumers();

// The per mille of each query from `consumer` for the model `spec` (a registry name or a model
// file), working in `dir`. Fails the test if a tool or program fails.
std::vector<PerMille> consumer_per_mille(const std::string& consumer, const std::string& spec,
                                         const std::vector<CpQuery>& queries,
                                         const std::filesystem::path& dir);

}  // namespace wdl::testing
