#pragma once

#include <optional>
#include <string>

#include "wdl/export/model_export.hpp"
#include "wdl/model/model_lookup.hpp"

// exportWDL: a model as source code for other engines (docs/export.md).
namespace wdl::commands {

struct ExportWdlOptions {
    std::string model = "sf";  // a registry name, a scoreWDL --json file, a Stockfish source
    exporting::Language language = exporting::Language::Cpp;
    std::optional<std::string> output;  // the file written; stdout without it
};

// The provenance lines an export of a model states: for a registry model its releases, commit,
// date and source lines, else where load_model found it; and the wdlfit that exported it.
std::vector<std::string> export_provenance(const model::NamedModel& named);

// Writes the export (atomically to the output file, else to stdout). Throws wdl::Error with one
// line for a model that cannot be loaded or a file that cannot be written.
void export_wdl(const ExportWdlOptions& options);

}  // namespace wdl::commands
