#include "wdl/commands/annotate_wdl.hpp"

#include <fmt/format.h>

#include <iostream>

#include "wdl/io/block_reader.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/report/score_curves_plot.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

// Reads the file in blocks and annotates whole games at a time, so that memory follows the
// block size, not the file.
void annotate_file(const std::filesystem::path& path, const annotate::ExpectedScore& expected,
                   const annotate::AnnotateSettings& settings, util::AtomicFile& output,
                   annotate::AnnotationSummary& summary) {
    constexpr std::size_t kChunkBytes = std::size_t{4} << 20;
    auto reader = io::BlockReader::open(path);
    std::string buffer, annotated;
    auto flush = [&](std::size_t end) {
        annotated.clear();
        annotate::annotate_games(std::string_view(buffer).substr(0, end), expected, settings,
                                 annotated, summary);
        output.write(annotated);
        buffer.erase(0, end);
    };
    while (reader->read_block(buffer) > 0) {
        if (buffer.size() < kChunkBytes) continue;
        std::size_t cut = pgn::find_last_game_start(buffer, 1);
        if (cut != std::string::npos) flush(cut);
    }
    flush(buffer.size());
    if (!reader->damage().empty())
        std::cerr << "Warning: " << path.string() << ": " << reader->damage()
                  << "; its complete games were annotated" << std::endl;
}

// Both expected-score functions at the model's target mom, with the scheme's bounds.
void write_curves(const AnnotateWdlOptions& options, const model::WdlModel& model,
                  const std::optional<model::Normalization>& normalization) {
    annotate::ExpectedScore fitted(model, normalization, annotate::ScoreFunction::Model);
    annotate::ExpectedScore konrod(model, normalization, annotate::ScoreFunction::Konrod);
    // The target mom as a place: material for material models, the move otherwise.
    annotate::PositionPlace place{model.mom_target, model.mom_target, false};
    report::ScoreCurvesPlot plot;
    plot.title = fmt::format("Expected score at {} {} ({} position symbols)",
                             model::mom_type_name(model.mom_type), model.mom_target,
                             annotate::position_scheme_name(options.settings.scheme));
    plot.names = {"model (W + D/2)",
                  "Konrod's probabilistic game result, x_0_5 = the eval displayed as 1.00"};
    plot.curves.resize(2);
    for (int cp = -400; cp <= 400; cp += 2) {
        plot.evals.push_back(cp / 100.0);
        plot.curves[0].push_back(fitted.score(cp, place));
        plot.curves[1].push_back(konrod.score(cp, place));
    }
    auto bounds = annotate::position_bounds(options.settings.scheme);
    plot.bounds.assign(bounds.begin(),
                       bounds.begin() + annotate::bound_count(options.settings.scheme));
    report::write_score_curves_plot(plot, *options.plot);
    fmt::print("Saved the expected-score curves to {}.\n", options.plot->string());
}

}  // namespace

void annotate_wdl(const AnnotateWdlOptions& options) {
    if (options.inputs.empty()) throw Error("no PGN file to annotate");
    auto named = model::load_model(options.model);
    // The games' evals as the model's engine displayed them, unless the options say how another
    // engine did (as scoreWDL reads them).
    std::optional<model::Normalization> normalization;
    if (options.normalize_to_pawn_value || options.normalize_data)
        normalization = model::Normalization::from_options(options.normalize_to_pawn_value,
                                                           options.normalize_data);
    annotate::ExpectedScore expected(named.model, normalization, options.function);
    fmt::print("Model: {} ({}); evals converted with {}.\n", named.name, named.description,
               normalization
                   ? normalization->description()
                   : "its display rule, " + model::display_rule_text(named.model.display));
    util::AtomicFile output(options.output);
    annotate::AnnotationSummary summary;
    std::vector<std::string> warnings;  // also in the JSON
    auto warn = [&](std::string line) {
        std::cerr << line << std::endl;
        warnings.push_back(std::move(line));
    };
    for (const auto& input : options.inputs) {
        annotate::AnnotationSummary file_summary;
        annotate_file(input, expected, options.settings, output, file_summary);
        for (const auto& problem : file_summary.problems.listed())
            warn(fmt::format("Warning: {}, game {}: {}; game copied unchanged", input.string(),
                             problem.game_index + 1, problem.description));
        if (auto unlisted = file_summary.problems.unlisted())
            warn(fmt::format("Warning: {}: {} more games copied unchanged (not listed)",
                             input.string(), unlisted));
        summary.add(file_summary);
    }
    output.commit();
    fmt::print("{}", annotate::summary_text(summary));
    fmt::print("Wrote {}.\n", options.output.string());
    if (options.json) {
        auto json = annotate::summary_json(summary);
        json["warnings"] = warnings;
        util::write_file_atomically(*options.json, json.dump(2) + "\n");
    }
    if (options.plot) write_curves(options, named.model, normalization);
}

}  // namespace wdl::commands
