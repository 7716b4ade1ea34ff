// scoreWDL: fits Stockfish's WDL model to scanner counts (drop-in for scoreWDL.py).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <thread>

#include "choice_option.hpp"
#include "fit_filter_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/score_wdl.hpp"
#include "wdl/fit/model_selection.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace scoreWDL_program {

// Options for grouped count files (scoreWDLstat --groups K).
void add_validation_options(CLI::App& app, wdl::commands::ScoreWdlOptions& o) {
    add_choice_option(
        app, "--resample", o.resample, wdl::commands::kResampleChoiceNames,
        "Error bars of the fitted constants from grouped counts, each refit started "
        "at the full fit's optimum: jackknife (leave out one group at a time; the "
        "default for grouped input), bootstrap (draw the groups with replacement), or "
        "none. They take the groups, not the positions, as independent",
        "jackknife for grouped input, else none");
    app.add_option("--resamples", o.bootstrap_resamples, "Number of bootstrap refits")
        ->check(number_checks::in_range(2, 100000))
        ->capture_default_str();
    app.add_flag("--crossValidate", o.cross_validate,
                 "Deal the groups of grouped counts into --folds folds; score each fold with "
                 "models fitted on the others (the fitted model, the --oldModel or else the "
                 "--NormalizeData model when it has bs, and a one-parameter baseline from cp "
                 "alone): log-loss, Brier score, "
                 "expected-score RMSE and calibration tables; with --plot also a calibration PNG");
    app.add_option("--folds", o.folds, "Number of folds of --crossValidate (at most the groups)")
        ->check(number_checks::in_range(2, 1000))
        ->capture_default_str();
    app.add_option("--pngNameCalibration", o.png_name_calibration,
                   "File of the calibration plot (default: the --pngName with _calibration "
                   "before its extension)");
    app.add_flag("--trainerConstants", o.trainer_constants,
                 "Also fit the constants net trainers hard-code, one curve for every material in "
                 "internal units: the offset and scaling of a win-rate model with constant a and "
                 "b (nnue-pytorch's out_offset/out_scaling, bullet's 270/380) and the scale of "
                 "the one-parameter expected score (bullet's eval_scale, Texel's K); intervals by "
                 "a jackknife over the groups of grouped counts (docs/training-data.md)");
    app.add_flag("--selectModel", o.select_model,
                 "Fit every form of --forms (p_a/p_b) on the folds of --crossValidate and "
                 "compare their held-out log-loss, paired over the same positions: a table, the "
                 "form chosen (the fewest parameters within one standard error of the best), "
                 "whether Stockfish's poly3/poly3 is within the noise, and with --plot the top "
                 "forms' a(m), b(m) (grouped counts)");
    app.add_option_function<std::vector<std::string>>(
           "--forms",
           [&o](const std::vector<std::string>& names) {
               for (const auto& name : names) {
                   auto forms = wdl::fit::form_pair_from_name(name);
                   if (!forms)
                       throw CLI::ValidationError("--forms",
                                                  "\"" + name + "\" is no A/B form pair");
                   o.forms.push_back(*forms);
               }
           },
           "The forms of --selectModel, e.g. poly3/poly3,poly2/rational1 (default: all 25 pairs "
           "of poly1 ... poly5, and rational1 and rational2 with each other and with poly3)")
        ->delimiter(',')
        ->type_name("A/B,...");
    app.add_flag("--learningCurve", o.learning_curve,
                 "With --selectModel: repeat it on the first 1/8, 1/4, 1/2 and all of the groups, "
                 "to see from how much data on a richer form starts to predict better than the "
                 "cubic");
    app.add_option("--momCut", o.mom_cut,
                   "Compare the model fitted from this mom on (clamped below, as Stockfish's "
                   "materialMin 17) with the same form fitted on every retained mom: held-out "
                   "log-loss below the cut and from it on (set --materialMin or --moveMin lower; "
                   "grouped counts)")
        ->check(number_checks::in_range(1, 1000));
    app.add_flag("--compareFiles", o.compare_files,
                 "Take each input file as a source of its own (e.g. one time control, scanned "
                 "with --matchTC and the same --groups) and compare on held-out games one model "
                 "for all, one a(m) with a b(m) per file, and a model per file");
    app.add_option("--pngNameSelection", o.png_name_selection,
                   "File of the model selection plot (default: the --pngName with _selection "
                   "before its extension)");
}

// --report and what it quotes (docs/report.md).
void add_report_options(CLI::App& app, wdl::commands::ScoreWdlOptions& o) {
    app.add_option(
        "--report", o.report,
        "Write report.md (GitHub Markdown, the plots as PNG files beside it) and "
        "report.html (self-contained) of the fit against --oldModel into this folder, "
        "with fit.json (this fit, as --json); implies --crossValidate on grouped counts");
    app.add_option("--oldModel", o.old_model,
                   "The model --report compares the fit with and cross-validation scores: a "
                   "registry name (sf18), a model JSON or a Stockfish source DIR or DIR@REV "
                   "(default: the --NormalizeData model when it has bs)");
    app.add_option("--updateLog", o.update_log,
                   "A file of updateWDL.sh's printed lines that --report quotes");
    app.add_option("--scanSummary", o.scan_summary,
                   "The scoreWDLstat --json summary of the scan, for --report's data section");
    app.add_option("--revisionRange", o.revision_range,
                   "The engine revisions of the games as --report names them, e.g. "
                   "\"abc123 (2025-01-02) .. def456 (2025-02-03)\"");
}

// The command line as a shell reads it back: arguments with other than plain characters quoted.
std::string command_line(int argc, char** argv) {
    std::string line = "scoreWDL";
    for (int i = 1; i < argc; ++i) {
        std::string argument = argv[i];
        bool plain = !argument.empty() && argument.find_first_not_of(
                                              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_.,/:=@+") == std::string::npos;
        if (!plain) {
            std::string quoted = "'";
            for (char c : argument) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            argument = quoted + "'";
        }
        line += " " + argument;
    }
    return line;
}

void add_options(CLI::App& app, wdl::commands::ScoreWdlOptions& o) {
    app.add_option("filename", o.files, "JSON file(s) with the scanner's W/D/L counts (summed)")
        ->capture_default_str();
    app.add_option("--NormalizeToPawnValue", o.normalize_to_pawn_value,
                   "Static normalization: the old p_a(momTarget) that converted the games' "
                   "internal evals to cp")
        ->check(number_checks::positive());
    app.add_option("--NormalizeData", o.normalize_data,
                   fmt::format("Dynamic normalization as JSON, e.g. {} (the default unless "
                               "--NormalizeToPawnValue is given); with \"bs\" too it is the "
                               "engine's whole model, which --crossValidate scores",
                               wdl::model::kDefaultNormalizeData));
    add_fit_filter_options(app, o.filter, o.mom_target, o.a_form, o.b_form);
    add_choice_option(
        app, "--modelFitting", o.method, wdl::fit::kMethodNames,
        "fitDensity: fit the win rate curves; optimizeProbability: maximize the "
        "likelihood of the outcomes; optimizeScore: minimize the squared score error; "
        "None: only read the data");
    app.add_option("--winMin", o.win_min, "Skip the local fit of moms with fewer wins")
        ->check(number_checks::non_negative())
        ->capture_default_str();
    app.add_option("--momPlotMin", o.plot_range.mom_min,
                   "Lowest mom plotted (default: the filter's)")
        ->check(number_checks::in_range(0, kMaxMom));
    app.add_option("--momPlotMax", o.plot_range.mom_max,
                   "Highest mom plotted (default: the filter's)")
        ->check(number_checks::in_range(0, kMaxMom));
    app.add_option("--momPlotTarget", o.plot_range.mom_target,
                   "Mom of the density subplot (default: momTarget)")
        ->check(number_checks::in_range(0, kMaxMom));
    add_choice_option(app, "--plot", o.plot, wdl::commands::kPlotModeNames,
                      "Save and show the summary plot, only save it, or neither");
    app.add_option("--pngName", o.png_name, "File of the summary plot")->capture_default_str();
    app.add_option("--pngNameDistro", o.png_name_distro,
                   "Also save a plot of the W/D/L position counts per mom to this file");
    app.add_option("--json", o.json,
                   "Also write the fitted model, objective values, retained counts, local fits, "
                   "error bars, cross-validation and all options as JSON to this file");
    add_validation_options(app, o);
    add_report_options(app, o);
}

}  // namespace scoreWDL_program

int wdl::programs::scoreWDL(int argc, char** argv) {
    using namespace scoreWDL_program;
    CLI::App app(
        "Fit Stockfish's WDL model to the scanner's game statistics. Given an internal eval x, "
        "W(x) = 1 / (1 + exp(-(x - a) / b)), L(x) = W(-x), D(x) = 1 - W(x) - L(x), where "
        "a = p_a(mom) and b = p_b(mom) are cubics in t = mom / momTarget (mom: material count or "
        "move number; other forms with --aForm and --bForm). Prints {c3, c2, c1, c0} of p_a and "
        "p_b as Stockfish's as[] and bs[].",
        "scoreWDL");
    wdl::commands::ScoreWdlOptions options;
    options.threads = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    add_registry_option(app);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    options.command_line = command_line(argc, argv);
    if (options.normalize_to_pawn_value && options.normalize_data) {
        fmt::print(stderr,
                   "Error: Can only specify one of --NormalizeToPawnValue and --NormalizeData.\n");
        return 1;
    }
    return wdl::util::report_errors([&] { return wdl::commands::score_wdl(options); });
}
