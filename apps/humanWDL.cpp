// humanWDL: the rating-aware model of human games, fitted from a human-games count file, its
// form chosen on held-out games, and compared with what people use today.
#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/human_wdl.hpp"
#include "wdl/util/error.hpp"

int wdl::programs::humanWDL(int argc, char** argv) {
    CLI::App app(
        "Fit the rating-aware WDL model of human games to a human-games count file "
        "(scoreWDLstat --human): per speed class, win = logistic((x - a)/b + s) and loss = "
        "logistic((-x - a)/b - s) for the displayed eval x of the side to move, a and b cubics "
        "in material/58 times exp of a polynomial in the rating level l = (mean rating - 1500) "
        "/ 400, s = g d + tau, d = rating difference / 400, tau the side to move's own shift "
        "(docs/human-games.md). The form is chosen by held-out log-loss over folds "
        "of the game groups (the fewest parameters within one standard error of the best); the "
        "parameters get jackknife intervals over the groups; on held-out groups, per rating "
        "band, the fit is compared with lichess's Win%, lc0's Elo-dependent sharpness and "
        "Stockfish's model. Positions of a mate score are left out of the fit. A class or band "
        "with too few games is named instead of given numbers.",
        "humanWDL");
    wdl::commands::HumanWdlOptions options;
    options.threads = std::max(1, int(std::thread::hardware_concurrency()));
    app.add_option("counts", options.counts, "The human-games count file (scoreWDLstat --human)")
        ->required();
    accept_choices(
        app.add_option(
               "--forms", options.forms,
               "The forms to choose from, comma-separated (default: all): "
               "flat ignores ratings, difference adds g, level makes a and b "
               "vary with the rating level, level2 quadratically, tempo adds the side to move's "
               "own shift of the logits, tempo1 that shift linear in the level, ceiling reads an "
               "eval at lichess's +-10 pawns display ceiling as 10 + kappa, map reads the eval "
               "below it through a piecewise-linear map that moves the knots at 1, 2, 3, 5 and "
               "7 pawns, zero multiplies a by exp(zeta) where the eval is shown as 0.00 (the "
               "engine's score of a draw it sees), slip moves the side to move's eval by eta "
               "times its size (a person gives away more on the move the larger the eval)")
            ->delimiter(','),
        choices(wdl::human::kHumanFormNames));
    app.add_option("--folds", options.folds,
                   "Folds of the game groups for the choice of form and the comparison")
        ->check(number_checks::in_range(2, 1000))
        ->capture_default_str();
    app.add_option("--confidence", options.confidence, "Confidence of the intervals")
        ->check(number_checks::in_range(0.5, 0.999))
        ->capture_default_str();
    app.add_option("--concurrency", options.threads,
                   "Number of threads for the refits (default: all cores; the results do not "
                   "depend on it)")
        ->check(number_checks::positive());
    app.add_option("--stockfish", options.stockfish,
                   "Stockfish's model compared, by its registry name (sf for the newest)")
        ->capture_default_str();
    add_registry_option(app);
    app.add_option("-o,--output", options.output,
                   "Write the fitted model (every class with enough games) to this JSON file, "
                   "which queryWDL --model and exportWDL --model read")
        ->type_name("FILE");
    app.add_option("--json", options.json,
                   "Also write the report (the choice of form, the parameters with their "
                   "intervals, the comparison with its reliability bins) as JSON to this file; - "
                   "prints only the JSON, on stdout")
        ->type_name("FILE");
    app.add_option("--plots", options.plots,
                   "Plot (gnuplot) per class fitted: PREFIX-<class>-curves.png, the expected "
                   "score against the eval per rating level beside lichess's Win%, and "
                   "PREFIX-<class>-reliability.png, observed against predicted expected score "
                   "per rating band and predictor on held-out groups")
        ->type_name("PREFIX");
    app.add_option("--memoryLimit", options.memory_limit,
                   "Megabytes the count file's cells may take while they are fitted (about 72 "
                   "bytes a cell; default: half of the machine's memory). A larger file is "
                   "fitted on its first game groups only, a random sample of its games, and the "
                   "report says how many positions were left out")
        ->type_name("MB")
        ->check(number_checks::in_range(1, 1 << 20));
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::human_wdl(options);
        return 0;
    });
}
