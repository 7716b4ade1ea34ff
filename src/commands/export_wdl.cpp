#include "wdl/commands/export_wdl.hpp"

#include <fmt/format.h>

#include "wdl/export/human_export.hpp"
#include "wdl/human/human_model_file.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::commands {

std::vector<std::string> export_provenance(const model::NamedModel& named) {
    std::vector<std::string> lines;
    if (const auto* published = model::find_published_model(named.name)) {
        std::string releases;
        for (const auto& release : published->releases)
            releases += (releases.empty() ? "" : ", ") + release;
        lines.push_back(fmt::format("Stockfish's WDL model {} ({}), from {}.", published->name,
                                    releases.empty() ? "unreleased" : "released in " + releases,
                                    model::active_registry().source));
        lines.push_back(fmt::format("Stockfish commit {} of {}: {}", published->commit,
                                    published->date, published->subject));
        lines.push_back("Its mom in Stockfish: " + published->mom_expression);
        if (published->eval_expression)
            lines.push_back("Its eval in Stockfish: " + *published->eval_expression);
    } else {
        lines.push_back(fmt::format("The WDL model from {}.", named.description));
    }
    lines.push_back(
        fmt::format("Exported by wdlfit {}: exportWDL --model {}.", WDLFIT_VERSION, named.name));
    return lines;
}

namespace {

void write_export(const std::string& text, const ExportWdlOptions& options) {
    if (options.output)
        util::write_file_atomically(*options.output, text);
    else
        fmt::print("{}", text);
}

}  // namespace

void export_wdl(const ExportWdlOptions& options) {
    if (auto human = human::human_model_in(options.model)) {
        const std::vector<std::string> provenance = {
            fmt::format("The human model of {}.", options.model),
            fmt::format("Exported by wdlfit {}: exportWDL --model {}.", WDLFIT_VERSION,
                        options.model)};
        return write_export(exporting::export_human_model(*human, provenance, options.language),
                            options);
    }
    auto named = model::load_model(options.model);
    write_export(exporting::export_model(named.model, export_provenance(named), options.language),
                 options);
}

}  // namespace wdl::commands
