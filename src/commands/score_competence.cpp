#include "wdl/commands/score_competence.hpp"

#include <iostream>
#include <memory>

#include "wdl/competence/report.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/report/posterior_plot.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/move_values.hpp"
#include "wdl/tablebase/table_set.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

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

// A report of no decisions says why: no endgame of 3-4 men in the games, or tables missing.
void warn_no_decisions(const AnalysisResult& result, std::size_t missing_tables) {
    if (result.small_positions == 0) {
        std::cerr << "Warning: none of the " << result.games_read
                  << " games reaches a position of 3 or 4 men: there is nothing to judge."
                  << std::endl;
    } else if (missing_tables > 0) {
        std::cerr << "Warning: no decision: " << result.small_positions
                  << " positions of 3 or 4 men, but " << missing_tables
                  << " of their tables are missing (see above): run without --noGenerate, or "
                     "generateTables."
                  << std::endl;
    } else {
        std::cerr << "Warning: none of the " << result.small_positions
                  << " positions of 3 or 4 men is a decision (book moves, or every move of "
                     "one value)."
                  << std::endl;
    }
}

}  // namespace

void score_competence(const ScoreCompetenceOptions& options) {
    AnalysisSettings settings;
    try {
        settings.grid = CompetenceGrid(options.c_min, options.c_max, options.c_step);
    } catch (const std::invalid_argument& error) {
        throw Error(std::string("--cmin, --cmax, --cstep: ") + error.what());
    }
    if (!(options.kappa > 0)) throw Error("--kappa must be positive");
    settings.kappa = options.kappa;
    settings.fifty_move_rule = options.fifty_move_rule;
    settings.threads = options.concurrency;
    settings.keep_decisions = options.decisions.has_value();
    std::map<std::string, std::vector<double>> priors;
    if (options.prior) priors = read_prior_file(*options.prior, settings.grid);

    games::FileFilter filter(options.games.filters);
    auto files = games::select_game_files(options.games, filter, std::cout, std::cerr).selected;

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
        if (options.generate_on_demand) {
            own->generate_on_demand(options.concurrency, std::cerr);
            std::cout << "Own " << tablebase::metric_name(options.metric) << " tables in "
                      << options.table_directory.string()
                      << ": a missing one is generated when the games first meet its endgame "
                         "(--noGenerate refuses)."
                      << std::endl;
        }
        source = tablebase::make_own_source(*own);
    }

    auto [result, seconds] = games::read_with_progress(
        files,
        [&](games::ReadProgress& progress) {
            return analyse_files(files, *source, settings, &progress);
        },
        std::cerr);
    std::vector<std::string> table_problems = own ? own->problems() : std::vector<std::string>();
    for (const auto& problem : table_problems) std::cerr << "Warning: " << problem << std::endl;
    if (result.decisions == 0) warn_no_decisions(result, table_problems.size());

    ReportContext context{source->description(), source->metric(), &settings,
                          options.prior ? &priors : nullptr};
    std::cout << format_counts(result, context) << '\n'
              << format_groups(result, context) << '\n'
              << format_conversions(result);
    std::cout << "Time: " << seconds << " s" << std::endl;
    if (json_out) {
        json_out->write(report_json(result, context));
        json_out->commit();
        std::cout << "Wrote " << options.json->string() << std::endl;
    }
    if (decisions_out) {
        for (const auto& decision : result.decisions_kept)
            decisions_out->write(decision_line(decision) + "\n");
        decisions_out->commit();
        std::cout << "Wrote " << result.decisions_kept.size() << " decisions to "
                  << options.decisions->string() << std::endl;
    }
    if (options.plot) write_plot(result, context, *options.plot);
}

}  // namespace wdl::commands
