// exportWDL: a WDL model as a small, self-contained source file for another engine's code: C++,
// C, Rust, Python, JavaScript, or JSON.
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "choice_option.hpp"
#include "model_option.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/export_wdl.hpp"
#include "wdl/util/error.hpp"

int wdl::programs::exportWDL(int argc, char** argv) {
    CLI::App app(
        "Export a WDL model as a self-contained, dependency-free source file: the W/D/L "
        "probabilities of an internal eval at a material (or move, or ply), the per mille "
        "Stockfish prints, and the displayed eval and back, stating where the model comes "
        "from. A human model (humanWDL -o) is exported as Python or JavaScript, whose wdl(cp, "
        "material, move, elo, opponent_elo, time_control) gives the side to move's W/D/L. "
        "Prints it, or writes it with -o.",
        "exportWDL");
    wdl::commands::ExportWdlOptions options;
    add_model_option(app, options.model, "The WDL model")->capture_default_str();
    add_registry_option(app);
    add_choice_option(app, "--language", options.language, wdl::exporting::kLanguageNames,
                      "The language: a C++ header in Stockfish's style, a C header, a Rust file, "
                      "a Python module, a JavaScript ES module, or JSON "
                      "(docs/wdl_model_export.schema.json)");
    app.add_option("-o,--output", options.output, "Write the export to this file (default: stdout)")
        ->type_name("FILE");
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::export_wdl(options);
        return 0;
    });
}
