// compareWDL: compares WDL models across engine versions: Stockfish's published models by name,
// scoreWDL --json fits, or the model in a Stockfish source tree or revision.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "normalization_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/compare_wdl.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace compareWDL_program {

using wdl::model::MomType;

// --counts and --fit: the models against games.
void add_data_options(CLI::App& app, wdl::commands::CompareWdlOptions& options) {
    app.add_option("--counts", options.counts,
                   "Score the models on the positions of these count files (scoreWDLstat's; "
                   "added up): log-loss, Brier score, expected-score RMSE, calibration, and "
                   "each model's log-loss minus the first's, paired position by position. "
                   "Grouped counts (scoreWDLstat --groups) give errors with the groups as "
                   "independent units; plain counts take positions as independent");
    app.add_option("--fit", options.fit,
                   "OLD NEW: fit two count files (the games of two engine versions) as scoreWDL "
                   "does (optimizeProbability) and compare NormalizeToPawnValue, spread, draw "
                   "rate and a(mom), b(mom) at --moms, with standard errors (jackknife over "
                   "the groups of grouped counts, else Fisher) and whether each change is "
                   "significant")
        ->expected(2);
    add_normalization_options(app, options.normalize_to_pawn_value, options.normalize_data,
                              "the engine that played the counted games");
    add_choice_option(app, "--momType", options.filter.mom_type,
                      choices(wdl::model::kMomTypeNames, {MomType::Material, MomType::Move}),
                      "The mom of the --fit fits");
    app.add_option("--momTarget", options.mom_target, "The --fit fits' target mom")
        ->check(number_checks::in_range(1, 1000))
        ->capture_default_str();
    app.add_option("--threads", options.threads,
                   "Threads for the jackknife refits of --fit (default: all cores)")
        ->check(number_checks::positive());
}

}  // namespace compareWDL_program

int wdl::programs::compareWDL(int argc, char** argv) {
    using namespace compareWDL_program;
    CLI::App app(
        "Compare WDL models side by side: NormalizeToPawnValue, spread and draw rate, a(mom) and "
        "b(mom) and their differences, how an eval displayed by the first model is displayed by "
        "the others, and the W/D/L of each at displayed evals. The first model is the "
        "reference.",
        "compareWDL");
    wdl::commands::CompareWdlOptions options;
    options.threads = std::max(1, int(std::thread::hardware_concurrency()));
    app.add_option("models", options.models,
                   "Models: a registry name (" + wdl::model::published_model_names() +
                       "), a scoreWDL --json file, a Stockfish source tree DIR or a revision "
                       "DIR@REV of a Stockfish git checkout");
    app.add_flag("--list", options.list,
                 "List the registry's models (Stockfish's published ones), say how current it "
                 "is, and exit");
    auto* history = app.add_option("--history", options.history,
                                   "Read the registry from the git history of a Stockfish clone "
                                   "CLONE (a checkout or a bare "
                                   "repository): a model for every commit that changed as[], bs[], "
                                   "their argument, the eval "
                                   "they take or NormalizeToPawnValue, named by the release tags "
                                   "(sf_12 ...) that shipped "
                                   "it; print it and exit")
                        ->type_name("CLONE");
    app.add_option("-o,--output", options.output,
                   "With --history: write the registry to this file, for --registry")
        ->type_name("FILE")
        ->needs(history);
    add_registry_option(app);
    app.add_option("--moms", options.moms,
                   "Mom values of the per-mom table, in the first model's mom (default: 8 values "
                   "over its range)")
        ->delimiter(',')
        ->check(number_checks::in_range(0, 1000));
    app.add_option("--evals", options.evals,
                   "Displayed evals in pawns at which to show each model's W/D/L")
        ->delimiter(',')
        ->check(number_checks::finite())
        ->capture_default_str();
    app.add_option("--plot", options.plot, "Save the comparison plot (true) or not (false)")
        ->capture_default_str();
    app.add_option("--pngName", options.png_name, "File of the comparison plot")
        ->capture_default_str();
    app.add_option("--json", options.json,
                   "Also write the comparison (and the --counts scores, the --fit comparison) as "
                   "JSON to this file");
    add_data_options(app, options);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::compare_wdl(options);
        return 0;
    });
}
