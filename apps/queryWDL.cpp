// queryWDL: answers from a WDL model for scripts and terminals: W/D/L at evals and moms, the eval
// of a wanted win rate, and how another model displays the same evals.
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "model_option.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/query_wdl.hpp"
#include "wdl/util/error.hpp"

int wdl::programs::queryWDL(int argc, char** argv) {
    CLI::App app(
        "Query a WDL model: the W/D/L (per mille) and expected score at displayed evals and "
        "materials (or moves), the eval at which the engine wins a wanted fraction of its games, "
        "and how another model displays the same internal evals; of a human model (humanWDL -o), "
        "the side to move's W/D/L at --elo and --tc. Prints tables, or JSON with --json -.",
        "queryWDL");
    wdl::commands::QueryWdlOptions options;
    add_model_option(app, options.model, "The WDL model")->capture_default_str();
    add_registry_option(app);
    app.add_option_function<std::vector<double>>(
           "--evals",
           [&options](const std::vector<double>& evals) {
               options.evals = evals;
               options.evals_given = true;
           },
           "Evals in centipawns as the model's engine displays them: 100 x / a(mom) for the "
           "internal eval x, or 100 x / N for Stockfish 12 to 16.1 (default 0,50,100,200,300)")
        ->delimiter(',')
        ->check(number_checks::finite());
    app.add_flag("--internal", options.internal, "The --evals are in internal units instead");
    app.add_option("--materials", options.materials,
                   "Materials (P + 3N + 3B + 5R + 9Q of both sides) for a model of the material "
                   "(default: its target)")
        ->delimiter(',')
        ->check(number_checks::non_negative());
    app.add_option("--moves", options.moves,
                   "Full moves for a model of the move or of the ply (ply = 2 (move - 1), White "
                   "to move; default: its target)")
        ->delimiter(',')
        ->check(number_checks::at_least(1));
    app.add_option("--winRate", options.win_rates,
                   "Win rates in (0, 1): print the eval at which the engine wins this fraction of "
                   "its games")
        ->delimiter(',')
        ->check(number_checks::open_unit_interval());
    app.add_option("--to", options.to,
                   "Another model (as --model): print how it displays the internal evals that "
                   "--model displays as --evals")
        ->type_name("MODEL");
    app.add_option("--elo", options.elo,
                   "For a human model (humanWDL -o): the side to move's rating and its "
                   "opponent's, comma-separated")
        ->delimiter(',')
        ->expected(2)
        ->check(number_checks::finite());
    app.add_option("--tc", options.time_control,
                   "For a human model: the game's time control as its PGN tag (600+5), which "
                   "gives its speed class")
        ->type_name("TAG");
    app.add_option("--json", options.json,
                   "Also write the answers as JSON to this file; - prints only the JSON, on "
                   "stdout")
        ->type_name("FILE");
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::query_wdl(options);
        return 0;
    });
}
