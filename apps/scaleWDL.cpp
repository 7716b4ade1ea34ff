// scaleWDL: did a patch change the eval scale? The two engines of a test, each fitted on its own
// moves of the same games, compared with a jackknife that leaves the same games out of both.
#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "fit_filter_options.hpp"
#include "game_selection_options.hpp"
#include "normalization_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/scale_wdl.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace scaleWDL_program {

constexpr const char* kDescription =
    "Did a patch change the eval scale? Reads the games of one or many tests (or any PGN of two "
    "engines: fishtest's New and Base, else the roles markovWDL gives them) and fits the WDL "
    "model to each engine's own evals, on its own moves of the same games, as scoreWDL fits. "
    "Per test and pooled over tests of the same pair: the ratio of NormalizeToPawnValue "
    "New/Base ('New's evals are 7.2 % larger'), the spread's ratio and the draw rate at 0, each "
    "with a paired interval (a jackknife over groups of games that leaves the same games out of "
    "both fits) and the wider interval the two fits would have as independent ones. Asymmetry: "
    "each engine's side ahead against its side behind net of a strength term fitted with them "
    "(the stronger engine wins more than its evals say), with intervals, the strength in Elo, "
    "and a held-out comparison against the model without the engine's scales per side.";

void add_options(CLI::App& app, wdl::commands::ScaleWdlOptions& o) {
    add_game_file_options(app, o.games.source);
    add_test_filter_options(app, o.games.filters);
    app.add_option("--concurrency", o.concurrency,
                   "Number of threads for reading and refits (default: all cores; the results "
                   "do not depend on it)")
        ->check(number_checks::positive());
    app.add_option("--matchEngine", o.match_engine,
                   "Keep only games in which a player's White/Black name matches this regex "
                   "(both engines of a kept game are fitted; default: --matchRev)");
    app.add_option("--fixFENsource", o.fix_fen_source,
                   "File of FENs with their true move counters (plain or .gz), as scoreWDLstat "
                   "takes it");
    add_choice_option(app, "--evalParsing", o.eval_parsing, wdl::games::kEvalParsingNames,
                      "exact: centipawns from the decimal digits; legacy: the original "
                      "scanner's float arithmetic");
    app.add_option("--binWidth", o.bin_width,
                   "Round evals to multiples of this many centipawns, as scoreWDLstat")
        ->check(number_checks::positive())
        ->capture_default_str();
    app.add_option("--groups", o.groups,
                   "Groups of games for the jackknife (a hash of each game's file, relative to "
                   "--dir, and its place: the groups scoreWDLstat --groups K --groupBy game "
                   "makes); both engines' positions of a game are in its group")
        ->check(number_checks::in_range(2, wdl::counts::kMaxGroups / 2))
        ->capture_default_str();
    add_choice_option(app, "--pool", o.pool, wdl::commands::kPoolingNames,
                      "Besides each test: pair pools the tests of the same two engines (the "
                      "same New and Base revisions), all pools every test read, none pools "
                      "nothing (a pool's group g holds group g of each of its tests)");
    add_normalization_options(app, o.normalize_to_pawn_value, o.normalize_data, "both engines");
    add_fit_filter_options(app, o.filter, o.mom_target, o.a_form, o.b_form);
    app.add_option("--confidence", o.confidence, "Confidence of the intervals")
        ->check(number_checks::in_range(0.5, 0.999))
        ->capture_default_str();
    app.add_flag_callback(
        "--noAsymmetry", [&o] { o.asymmetry = false; },
        "Skip the asymmetry of each engine (its side ahead against its side behind) and "
        "the strength term");
    app.add_option("--folds", o.folds,
                   "Folds of the game groups for the held-out comparison of the asymmetric "
                   "model")
        ->check(number_checks::in_range(2, 1000))
        ->capture_default_str();
    app.add_option("--json", o.json,
                   "Also write every figure (both engines' fits, the paired and unpaired "
                   "intervals, the asymmetry and its held-out comparison, the summary) as JSON");
    app.add_option("--png", o.png,
                   "Plot (gnuplot) New's scale against Base's and each engine's asymmetry, a "
                   "row per test and pooled set with its interval");
}

}  // namespace scaleWDL_program

int wdl::programs::scaleWDL(int argc, char** argv) {
    using namespace scaleWDL_program;
    CLI::App app{kDescription, "scaleWDL"};
    wdl::commands::ScaleWdlOptions options;
    options.concurrency = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    add_registry_option(app);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::scale_wdl(options);
        return 0;
    });
}
