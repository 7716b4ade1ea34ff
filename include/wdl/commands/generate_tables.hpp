#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "wdl/tablebase/table.hpp"

// generateTables: the project's own endgame tables (docs/programs.md).
namespace wdl::commands {

struct GenerateTablesOptions {
    std::vector<std::string> endgames;  // empty: every endgame of 3 and 4 men
    std::vector<tablebase::Metric> metrics;
    std::filesystem::path directory;
    int threads = 0;  // 0: all cores
};

// Generates the tables that are missing, one line per table on stdout.
void generate_tables(const GenerateTablesOptions& options);

}  // namespace wdl::commands
