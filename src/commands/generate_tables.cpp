#include "wdl/commands/generate_tables.hpp"

#include <chrono>
#include <iostream>

#include "wdl/tablebase/material.hpp"
#include "wdl/tablebase/table_set.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {

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
