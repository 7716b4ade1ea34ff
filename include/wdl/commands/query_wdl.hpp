#pragma once

#include <optional>
#include <string>
#include <vector>

// queryWDL: a model's W/D/L at given evals and moms, the eval of a wanted win rate, and how
// another model displays the same evals (docs/programs.md).
namespace wdl::commands {

struct QueryWdlOptions {
    std::string model = "sf";  // a registry name, a scoreWDL --json file, a Stockfish source
    // Centipawns as the model displays them (100 x / a(mom)), or internal units with `internal`.
    std::vector<double> evals{0, 50, 100, 200, 300};
    bool evals_given = false;  // --evals was given: print the W/D/L even with --winRate or --to
    bool internal = false;
    // The model's mom: materials for a material model, full moves for a move or ply model (a ply
    // model reads move m as ply 2 (m - 1), White to move). Empty: the model's target.
    std::vector<double> materials, moves;
    std::vector<double> win_rates;  // print the eval at which the engine wins this often
    std::optional<std::string> to;  // print how this model displays the evals
    // For a human model (humanWDL -o): the side to move's rating and its opponent's, and the
    // game's time control as its PGN tag ("600+5").
    std::vector<double> elo;
    std::optional<std::string> time_control;
    // Write the answers as JSON to this file; "-" writes them to stdout instead of the tables.
    std::optional<std::string> json;
};

// Prints the tables asked for (W/D/L per mille; evals of win rates; the display mapping) or
// their JSON. Throws wdl::Error with one line for an unknown model, a win rate outside (0, 1),
// a number that is not finite, moms of the wrong kind for the model, or models whose moms do
// not correspond (material against move). A human model needs --elo and --tc and answers the
// W/D/L table only.
void query_wdl(const QueryWdlOptions& options);

}  // namespace wdl::commands
