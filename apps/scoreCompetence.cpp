// scoreCompetence: the apparent endgame competence c of each engine (Haworth's reference
// fallible endgame player R_c) from the moves it played in positions covered by endgame
// tables, and how often table wins were not converted.
#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "game_selection_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "wdl/commands/score_competence.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/table_set.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace scoreCompetence_program {

using wdl::commands::ScoreCompetenceOptions;

void add_options(CLI::App& app, ScoreCompetenceOptions& o) {
    add_game_file_options(app, o.games.source);
    add_test_filter_options(app, o.games.filters);
    add_choice_option(app, "--tables", o.tables, wdl::commands::kTableSourceKindNames,
                      "own: the project's tables (generateTables; 3-4 men, DTC or DTM); "
                      "gaviota: Debian's 3-man Gaviota tables (DTM)");
    add_choice_option(app, "--metric", o.metric, wdl::tablebase::kMetricNames,
                      "Depth metric of own tables: depth to conversion or to mate");
    app.add_option("--tableDir", o.table_directory,
                   "Directory of own tables (default: $WDLFIT_TABLES, else "
                   "$XDG_CACHE_HOME/wdlfit/tables, else ~/.cache/wdlfit/tables)");
    app.add_flag("--generate", o.generate,
                 "First generate every missing own table of the metric (all 3-4-man endgames: "
                 "minutes, once)");
    app.add_flag_callback(
        "--noGenerate", [&o] { o.generate_on_demand = false; },
        "Do not generate a missing own table when the games meet its endgame (by "
        "default it is generated then, once): its positions count as not covered");
    app.add_option("--gaviotaDir", o.gaviota_directory,
                   "Directory of Gaviota tables (*.gtb.cp4; default: the gaviotatb package's)");
    app.add_option("--kappa", o.kappa, "kappa in S_c(win, d) = (d + kappa)^-c (default: 1)")
        ->check(number_checks::positive());
    // c = 0 is the random mover; a negative c would prefer the worst moves.
    app.add_option("--cmin", o.c_min, "Smallest c of the grid (default: 0)")
        ->check(number_checks::non_negative());
    app.add_option("--cmax", o.c_max, "Largest c of the grid (default: 50)")
        ->check(number_checks::non_negative());
    app.add_option("--cstep", o.c_step, "Step of the c grid (default: 0.1)")
        ->check(number_checks::positive());
    app.add_option("--prior", o.prior,
                   "A --json file of an earlier run on the same grid: each group's posterior "
                   "there is its prior here (Haworth & Andrist's continuing "
                   "analyser); default: uniform");
    add_choice_option(app, "--fiftyMoveRule", o.fifty_move_rule,
                      wdl::competence::kFiftyMoveRuleNames,
                      "Decisions where the halfmove clock makes a table result unreachable: "
                      "skip them, draw (count that result as a draw) or ignore (use the tables)");
    app.add_option("--concurrency", o.concurrency,
                   "Number of threads (default: all cores); one big file is split across "
                   "threads too")
        ->check(number_checks::positive());
    app.add_option("--json", o.json,
                   "Also write the report as JSON: parameters, counts, per group the summary and "
                   "the log-likelihood and posterior on the grid (log-likelihoods of runs on one "
                   "grid add up), the conversion summary with its games");
    app.add_option("--decisions", o.decisions,
                   "Write one JSON line per decision: file, game, FEN, mover, played move, every "
                   "legal move with its value and depth");
    app.add_option("--plot", o.plot, "Write a PNG of each engine's posterior of c (gnuplot)");
}

}  // namespace scoreCompetence_program

int wdl::programs::scoreCompetence(int argc, char** argv) {
    using namespace scoreCompetence_program;
    CLI::App app{
        "Measure the apparent endgame competence c of engines (Haworth & Andrist's reference "
        "fallible endgame player R_c, 'Model endgame analysis') from their moves in positions "
        "covered by endgame tables, with its posterior per engine, per engine and role and per "
        "engine and endgame; and count the table wins that were not converted and the table "
        "draws that were not held.",
        "scoreCompetence"};
    ScoreCompetenceOptions options;
    options.table_directory = wdl::tablebase::default_table_directory();
    options.gaviota_directory = wdl::tablebase::GaviotaTables::default_directory();
    options.concurrency = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::score_competence(options);
        return 0;
    });
}
