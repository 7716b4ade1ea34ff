// generateTables: builds the project's own endgame tables (up to 4 men, DTM and DTC) into the
// table directory that scoreCompetence reads.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>

#include "wdl/tablebase/table_set.hpp"

namespace tb = wdl::tablebase;

int main(int argc, char** argv) {
    CLI::App app{
        "Generate endgame tables of up to 4 men (DTM and/or DTC) by retrograde analysis, into "
        "a cache directory outside the repository. Existing files are kept; delete one to "
        "generate it again."};
    std::vector<std::string> endgames;
    std::string metric = "both";
    std::string directory = tb::default_table_directory().string();
    int threads = 0;
    app.add_option("endgames", endgames,
                   "Endgames such as KQKR KPK (default: every endgame of 3 and 4 men); the "
                   "tables they need are generated too");
    app.add_option("--metric", metric, "DTM, DTC or both (default: both)")
        ->check(CLI::IsMember({"DTM", "DTC", "both", "dtm", "dtc"}));
    app.add_option("--dir", directory,
                   "Table directory (default: $WDLFIT_TABLES, else $XDG_CACHE_HOME/wdlfit/tables, "
                   "else ~/.cache/wdlfit/tables)");
    app.add_option("--threads", threads, "OpenMP threads (default: all cores)")
        ->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);
    try {
        std::vector<tb::Material> materials;
        for (const auto& name : endgames) {
            auto material = tb::Material::parse(name);
            if (!material || material->men() < 3)
                throw std::runtime_error("Error: not an endgame of 3 or 4 men: " + name);
            materials.push_back(*material);
        }
        if (materials.empty()) materials = tb::all_endgames(tb::kMaxMen);
        std::vector<tb::Metric> metrics;
        if (metric != "DTC" && metric != "dtc") metrics.push_back(tb::Metric::DTM);
        if (metric != "DTM" && metric != "dtm") metrics.push_back(tb::Metric::DTC);
        auto start = std::chrono::steady_clock::now();
        for (tb::Metric m : metrics) {
            tb::TableSet tables(directory, m);
            tables.generate_missing(materials, threads, std::cout);
        }
        std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        std::cout << "Tables in " << directory << " (" << seconds.count() << " s)" << std::endl;
        return 0;
    } catch (const std::exception& error) {
        std::string message = error.what();
        std::cerr << (message.starts_with("Error: ") ? "" : "Error: ") << message << std::endl;
        return 1;
    }
}
