// markovWDL: eval-class Markov chains per engine and pairing (the Alliot model), their
// predictions and an honest measure of what those are worth on games they did not see.
#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "game_selection_options.hpp"
#include "model_option.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/markov_wdl.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace markovWDL_program {

constexpr const char* kDescription =
    "Build Markov chains over classes of evaluation, one transition matrix per engine and "
    "pairing (a fishtest test, or two engines), as Alliot's 'Who is the Master?' does for human "
    "players: a move goes from the class of the mover's eval to the class of the opponent's "
    "next eval, turned to the mover's view. Predicts each pairing's score and W/D/L from the "
    "chains' stationary vector (Alliot's last/middle/first classes, and a WDL model's W/D/L per "
    "class), prints them next to the actual score with its standard error and Elo, a cross-fit "
    "on held-out openings against a plain baseline, and conformance figures per engine.\n\n"
    "What the predictions are worth: the engines judge themselves (their own evals make the "
    "chains) and games end when the evals reach the extreme classes, so a prediction from a "
    "test's own games partly restates its result. Only the cross-fit (chains of one half of the "
    "openings predicting the other half, next to that half's own actual score as the baseline) "
    "measures predictive value; read its verdict before using the predictions.";

void add_options(CLI::App& app, wdl::commands::MarkovWdlOptions& options) {
    add_game_file_options(app, options.games.source);
    add_test_filter_options(app, options.games.filters);
    app.add_option("--concurrency", options.concurrency, "Number of threads (default: all cores)")
        ->check(number_checks::positive());
    app.add_option("--matchEngine", options.match_engine,
                   "Keep only games in which a player's White/Black name matches this regex (a "
                   "game's two engines always both make chains; default: --matchRev)");
    app.add_option("--fixFENsource", options.fix_fen_source,
                   "File of FENs with their true move counters (plain or .gz), as scoreWDLstat "
                   "takes it (it changes only the move numbers of the model fit's positions)");
    add_choice_option(app, "--evalParsing", options.eval_parsing, wdl::games::kEvalParsingNames,
                      "exact: centipawns from the decimal digits; legacy: the original "
                      "scanner's float arithmetic");
    app.add_option("--classes", options.classes,
                   "Eval classes: log19 (default; Alliot's 19 classes: exact 0, 8 log-spaced "
                   "classes per side up to 2.00, extremes beyond), linear10 (Alliot's 10 "
                   "classes of 0.4 pawns, extremes beyond 1.60), model (equal steps of expected "
                   "score under --classModel), or positive bounds in pawns such as "
                   "0,0.25,0.5,1,2 (mirrored below 0; a leading 0 adds an exact-0 class; the "
                   "last bound starts the extreme class)")
        ->capture_default_str();
    app.add_option("--classModel", options.class_model,
                   "The model of --classes model: " + model_spec_help() +
                       "; its expected score is read at its target material")
        ->capture_default_str();
    app.add_option("--classCount", options.class_count,
                   "Number of classes of --classes model (odd: a class around 0)")
        ->check(number_checks::in_range(3, 201))
        ->capture_default_str();
    add_choice_option(app, "--transitions", options.transitions, wdl::markov::kTransitionModeNames,
                      "own: a move of P goes from P's eval to the opponent's next eval; "
                      "opponent: from the opponent's previous eval to its next one (the "
                      "opponent as the judge)");
    app.add_flag("--perColour", options.per_colour,
                 "One matrix per engine and colour instead of both colours pooled by the mirror "
                 "rule");
    add_model_option(app, options.model,
                     "The WDL model whose W/D/L each class carries in the model-aware prediction "
                     "(evals are read as that engine displays them)",
                     ". Default: a model fitted to the same games with scoreWDL's defaults, and "
                     "one to each cross-fit fold");
    app.add_option("--json", options.json,
                   "Also write every figure (pairings with actual, stationary, model, crossfit, "
                   "matrices, conformance; the summary) as JSON to this file");
    app.add_option("--plotDir", options.plot_dir,
                   "Write PNG plots into this directory (created if missing): per pairing the "
                   "matrices as heatmaps with their difference and the class occupancy and mean "
                   "drop; predicted against actual scores over all pairings");
}

}  // namespace markovWDL_program

int wdl::programs::markovWDL(int argc, char** argv) {
    using namespace markovWDL_program;
    CLI::App app{kDescription, "markovWDL"};
    wdl::commands::MarkovWdlOptions options;
    options.concurrency = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    add_registry_option(app);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::markov_wdl(options);
        return 0;
    });
}
