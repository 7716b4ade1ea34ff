// compareWDL: compares WDL models across engine versions: Stockfish's published models by name,
// scoreWDL --json fits, or the model in a Stockfish source tree or revision.
#include <CLI/CLI.hpp>

#include "wdl/commands/compare_wdl.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/error.hpp"

int main(int argc, char** argv) {
    CLI::App app(
        "Compare WDL models side by side: NormalizeToPawnValue, spread and draw rate, a(mom) and "
        "b(mom) and their differences, how an eval displayed by the first model is displayed by "
        "the others, and the W/D/L of each at displayed evals. The first model is the "
        "reference.");
    wdl::commands::CompareWdlOptions options;
    app.add_option("models", options.models,
                   "Models: a registry name (" + wdl::model::published_model_names() +
                       "), a scoreWDL --json file, a Stockfish source tree DIR or a revision "
                       "DIR@REV of a Stockfish git checkout");
    app.add_flag("--list", options.list, "List Stockfish's published models and exit");
    app.add_option("--moms", options.moms,
                   "Mom values of the per-mom table, in the first model's mom (default: 8 values "
                   "over its range)")
        ->delimiter(',');
    app.add_option("--evals", options.evals,
                   "Displayed evals in pawns at which to show each model's W/D/L")
        ->delimiter(',')
        ->capture_default_str();
    app.add_option("--plot", options.plot, "Save the comparison plot (true) or not (false)")
        ->capture_default_str();
    app.add_option("--pngName", options.png_name, "File of the comparison plot")
        ->capture_default_str();
    app.add_option("--json", options.json, "Also write the comparison as JSON to this file");
    CLI11_PARSE(app, argc, argv);
    return wdl::util::report_errors([&] {
        wdl::commands::compare_wdl(options);
        return 0;
    });
}
