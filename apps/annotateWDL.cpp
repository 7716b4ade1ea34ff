// annotateWDL: PGN with position and move symbols (NAGs) from a WDL model and the games' evals.
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "choice_option.hpp"
#include "model_option.hpp"
#include "normalization_options.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/annotate/symbols.hpp"
#include "wdl/commands/annotate_wdl.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace annotateWDL_program {

using wdl::annotate::MoveThresholds;

void add_symbol_options(CLI::App& app, wdl::commands::AnnotateWdlOptions& options) {
    auto& settings = options.settings;
    add_choice_option(app, "--scheme", settings.scheme, wdl::annotate::kPositionSchemeNames,
                      "Position symbols (= +/= +/- +- ++- and mirrors) by ranges of White's "
                      "expected score: konrod9 (Konrod's 9 ranges anchored at the win-draw "
                      "balance: bounds 0.55 0.65 0.75 0.875), equal9 (9 equal ranges: 5/9 6/9 7/9 "
                      "8/9) or seven (7 ranges, no ++-: 4/7 5/7 6/7)");
    app.add_option_function<std::vector<double>>(
           "--moveThresholds",
           [&settings](const std::vector<double>& values) {
               // Drops of an expected score lie in [0, 1]; the negated test also refuses NaN.
               if (values.size() != 3 || !(values[0] >= 0 && values[0] <= values[1] &&
                                           values[1] <= values[2] && values[2] <= 1))
                   throw CLI::ValidationError("--moveThresholds",
                                              "needs three increasing drops between 0 and 1");
               settings.thresholds = {values[0], values[1], values[2]};
           },
           "Drops of the mover's expected score that make a move ?!, ? and ?? (default "
           "0.05,0.10,0.20)")
        ->delimiter(',');
    app.add_flag_callback(
        "--relevance", [&settings] { settings.thresholds = wdl::annotate::relevance_thresholds(); },
        "Move thresholds of Konrod's economical scheme instead: 1/14, 3/14, 5/14 of the whole "
        "range of expected score");
    app.add_flag("--lichess", settings.lichess,
                 "Also compute lichess's accuracies by its published formulas (Win% of the eval, "
                 "move accuracy from the mover's Win% before and after, and its game accuracy) "
                 "and print each player's mean game accuracy next to wdlfit's");
    app.add_flag("--wdlComments", settings.wdl_comments,
                 "Also add the model's W/D/L per mille for White after each evaluated move, as "
                 "[%wdl w,d,l] in the move's comment");
}

void add_options(CLI::App& app, wdl::commands::AnnotateWdlOptions& options) {
    app.add_option("inputs", options.inputs, "PGN files (.pgn, .pgn.gz, .pgn.zst)")->required();
    app.add_option("-o,--output", options.output, "The annotated PGN, written atomically")
        ->capture_default_str();
    add_model_option(app, options.model, "The WDL model")->capture_default_str();
    add_normalization_options(app, options.normalize_to_pawn_value, options.normalize_data,
                              "the engine that played (if not the model's)",
                              "the model's display rule, docs/model.md");
    add_choice_option(
        app, "--expectedScore", options.function, wdl::annotate::kScoreFunctionNames,
        "model: W + D/2 of the model; konrod: Konrod's probabilistic game result "
        "with his win-draw balance x_0_5 = the eval the model's engine displays as 1.00 (a(mom) "
        "since Stockfish 17)");
    add_symbol_options(app, options);
    app.add_option("--plot", options.plot,
                   "Also plot the model's expected score and Konrod's probabilistic game "
                   "result against the displayed eval at the model's target mom, with the "
                   "scheme's bounds, into this PNG");
    app.add_option("--json", options.json,
                   "Also write the summary (games, symbols, per player: moves, mean loss, ?!, ?, "
                   "??, accuracy, and with --lichess lichess's accuracies) as JSON to this file");
}

}  // namespace annotateWDL_program

int wdl::programs::annotateWDL(int argc, char** argv) {
    using namespace annotateWDL_program;
    CLI::App app(
        "Annotate PGN games from their engine evals and a WDL model: after each evaluated move, "
        "a position symbol (NAG $10, $14-$21) from White's expected score, and a move symbol "
        "(?! $6, ? $2, ?? $4) from the drop of the mover's expected score between the positions "
        "before and after the move, by the rules of Konrod's article \"Evaluation Relevance "
        "Reduction\". Everything else of the games is kept byte for byte; a game that cannot be "
        "replayed is copied unchanged. Prints a summary per player.",
        "annotateWDL");
    wdl::commands::AnnotateWdlOptions options;
    add_options(app, options);
    add_registry_option(app);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::annotate_wdl(options);
        return 0;
    });
}
