#include "wdl/commands/score_competence.hpp"

#include <chrono>
#include <iostream>
#include <memory>

#include "wdl/competence/report.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/report/plots.hpp"
#include "wdl/scan/scan_report.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/move_values.hpp"
#include "wdl/tablebase/table_set.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;
using namespace competence;

void write_plot(const AnalysisResult& result, const ReportContext& context, const fs::path& png) {
    report::PosteriorPlot plot;
    plot.title = "Apparent endgame competence c per engine (" +
                 std::string(tablebase::metric_name(context.metric)) + ")";
    for (std::size_t i = 0; i < context.settings->grid.size(); ++i)
        plot.grid.push_back(context.settings->grid.at(i));
    for (const auto& [group, totals] : result.groups) {
        if (!group.starts_with("engine=") || group.find(' ') != std::string::npos) continue;
        plot.names.push_back(group.substr(7) + " (" + std::to_string(totals.decisions) +
                             " decisions)");
        plot.curves.push_back(group_posterior(group, totals, context));
    }
    if (plot.names.empty()) {
        std::cerr << "Warning: no decisions, so no plot." << std::endl;
        return;
    }
    report::write_posterior_plot(plot, png);
    std::cout << "Wrote " << png.string() << std::endl;
}

}  // namespace

void score_competence(const ScoreCompetenceOptions& options) {
    AnalysisSettings settings;
    try {
        settings.grid = CompetenceGrid(options.c_min, options.c_max, options.c_step);
    } catch (const std::invalid_argument& error) {
        throw Error(error.what());
    }
    if (!(options.kappa > 0)) throw Error("--kappa must be positive");
    settings.kappa = options.kappa;
    settings.fifty_move_rule = options.fifty_move_rule;
    settings.threads = options.concurrency;
    settings.keep_decisions = options.decisions.has_value();
    std::map<std::string, std::vector<double>> priors;
    if (options.prior) priors = read_prior_file(*options.prior, settings.grid);

    scan::FileFilter filter(options.filters);
    auto files = scan::find_game_files(options.source, std::cout);
    std::vector<std::string> metadata_warnings;
    auto metadata = fishtest::load_metadata(files, metadata_warnings);
    for (const auto& warning : metadata_warnings) std::cerr << warning << std::endl;
    files = filter.apply(std::move(files), metadata, std::cout);

    // Outputs are opened first, so that a bad path fails before the analysis.
    std::optional<util::AtomicFile> json_out, decisions_out;
    if (options.json) json_out.emplace(*options.json);
    if (options.decisions) decisions_out.emplace(*options.decisions);

    std::unique_ptr<tablebase::GaviotaTables> gaviota;
    std::unique_ptr<tablebase::TableSet> own;
    std::unique_ptr<tablebase::TableSource> source;
    if (options.tables == TableSourceKind::Gaviota) {
        gaviota = std::make_unique<tablebase::GaviotaTables>(options.gaviota_directory);
        source = tablebase::make_gaviota_source(*gaviota);
    } else {
        own = std::make_unique<tablebase::TableSet>(options.table_directory, options.metric);
        if (options.generate)
            own->generate_missing(tablebase::all_endgames(tablebase::kMaxMen), options.concurrency,
                                  std::cout);
        source = tablebase::make_own_source(*own);
    }

    scan::ReadProgress progress;
    auto start = std::chrono::steady_clock::now();
    AnalysisResult result;
    {
        std::uint64_t bytes = scan::total_file_bytes(files);
        util::ProgressTicker ticker([&](double seconds) {
            return scan::describe_progress(progress, files.size(), bytes, seconds);
        });
        result = analyse_files(files, *source, settings, &progress);
    }
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    for (const auto& warning : result.warnings) std::cerr << warning << std::endl;
    if (own)
        for (const auto& problem : own->problems())
            std::cerr << "Warning: " << problem << std::endl;
    if (!files.empty() && result.files_unreadable == files.size())
        throw Error("none of the " + std::to_string(files.size()) + " files could be read");
    if (result.decisions == 0)
        std::cerr << "Warning: none of the " << result.games_read
                  << " games has a decision covered by the tables." << std::endl;

    ReportContext context{source->description(), source->metric(), &settings,
                          options.prior ? &priors : nullptr};
    std::cout << format_counts(result, context) << '\n'
              << format_groups(result, context) << '\n'
              << format_conversions(result);
    std::cout << "Time: " << seconds.count() << " s" << std::endl;
    if (json_out) {
        json_out->write(report_json(result, context));
        json_out->commit();
        std::cout << "Wrote " << options.json->string() << std::endl;
    }
    if (decisions_out) {
        for (const auto& line : result.decision_lines) decisions_out->write(line + "\n");
        decisions_out->commit();
        std::cout << "Wrote " << result.decision_lines.size() << " decisions to "
                  << options.decisions->string() << std::endl;
    }
    if (options.plot) write_plot(result, context, *options.plot);
}

void generate_tables(const GenerateTablesOptions& options) {
    std::vector<tablebase::Material> materials;
    for (const auto& name : options.endgames) {
        auto material = tablebase::Material::parse(name);
        if (!material || material->men() < 3) throw Error("not an endgame of 3 or 4 men: " + name);
        materials.push_back(*material);
    }
    if (materials.empty()) materials = tablebase::all_endgames(tablebase::kMaxMen);
    auto start = std::chrono::steady_clock::now();
    for (tablebase::Metric metric : options.metrics) {
        tablebase::TableSet tables(options.directory, metric);
        tables.generate_missing(materials, options.threads, std::cout);
    }
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::cout << "Tables in " << options.directory.string() << " (" << seconds.count() << " s)"
              << std::endl;
}

}  // namespace wdl::commands
