// generateTables: builds the project's own endgame tables (up to 4 men, DTM and DTC) into the
// table directory that scoreCompetence reads.
#include <CLI/CLI.hpp>

#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "wdl/commands/generate_tables.hpp"
#include "wdl/tablebase/table_set.hpp"
#include "wdl/util/error.hpp"

int wdl::programs::generateTables(int argc, char** argv) {
    CLI::App app{
        "Generate endgame tables of up to 4 men (DTM and/or DTC) by retrograde analysis, into "
        "a cache directory outside the repository. Existing files are kept; delete one to "
        "generate it again.",
        "generateTables"};
    wdl::commands::GenerateTablesOptions options;
    options.directory = wdl::tablebase::default_table_directory();
    std::string metric = "both";
    app.add_option("endgames", options.endgames,
                   "Endgames such as KQKR KPK (default: every endgame of 3 and 4 men); the "
                   "tables they need are generated too");
    app.add_option("--metric", metric, "DTM, DTC or both (default: both)")
        ->check(CLI::IsMember({"DTM", "DTC", "both"}));
    app.add_option("--dir", options.directory,
                   "Table directory (default: $WDLFIT_TABLES, else $XDG_CACHE_HOME/wdlfit/tables, "
                   "else ~/.cache/wdlfit/tables)");
    app.add_option("--threads", options.threads, "OpenMP threads (default: all cores)")
        ->check(number_checks::positive());
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    if (metric != "DTC") options.metrics.push_back(wdl::tablebase::Metric::DTM);
    if (metric != "DTM") options.metrics.push_back(wdl::tablebase::Metric::DTC);
    return wdl::util::report_errors([&] {
        wdl::commands::generate_tables(options);
        return 0;
    });
}
