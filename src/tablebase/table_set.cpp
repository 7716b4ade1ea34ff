#include "wdl/tablebase/table_set.hpp"

#include <chrono>
#include <cstdlib>
#include <set>

#include "wdl/tablebase/generator.hpp"
#include "wdl/tablebase/table_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::tablebase {

namespace fs = std::filesystem;

fs::path default_table_directory() {
    if (const char* tables = std::getenv("WDLFIT_TABLES"); tables && *tables) return tables;
    if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
        return fs::path(cache) / "wdlfit" / "tables";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "wdlfit" / "tables";
    return fs::temp_directory_path() / "wdlfit-tables";
}

TableSet::TableSet(fs::path directory, Metric metric)
    : directory_(std::move(directory)), metric_(metric) {}

const Table* TableSet::load(const Material& canonical) {
    if (auto found = tables_.find(canonical); found != tables_.end()) return found->second.get();
    if (problems_.count(canonical)) return nullptr;
    fs::path path = directory_ / table_file_name(canonical, metric_);
    std::error_code error;
    if (!fs::exists(path, error) && on_demand_log_) {
        *on_demand_log_ << "Generating the " << metric_name(metric_) << " table of "
                        << canonical.name() << " (met in the games) into " << directory_.string()
                        << " ..." << std::endl;
        generate_missing({canonical}, on_demand_threads_, *on_demand_log_);
    }
    if (!fs::exists(path, error)) {
        problems_[canonical] = "no " + std::string(metric_name(metric_)) + " table for " +
                               canonical.name() + " (" + path.string() +
                               "): generate it with generateTables";
        return nullptr;
    }
    try {
        auto table = std::make_unique<Table>(read_table_file(path));
        if (!(table->material() == canonical) || table->metric() != metric_)
            throw wdl::Error(path.string() + ": holds another table");
        return (tables_[canonical] = std::move(table)).get();
    } catch (const std::exception& failure) {
        problems_[canonical] = failure.what();
        return nullptr;
    }
}

const Table* TableSet::find(const Material& material) {
    std::lock_guard lock(mutex_);
    return load(material.canonical());
}

std::vector<std::string> TableSet::problems() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> lines;
    for (const auto& [material, problem] : problems_) lines.push_back(problem);
    return lines;
}

void TableSet::generate_on_demand(int threads, std::ostream& log) {
    std::lock_guard lock(mutex_);
    on_demand_threads_ = threads;
    on_demand_log_ = &log;
}

void TableSet::generate_missing(const std::vector<Material>& materials, int threads,
                                std::ostream& log) {
    // The requested tables and everything they depend on, in dependency order.
    std::set<Material> needed;
    auto add = [&](auto&& self, const Material& material) -> void {
        if (!needed.insert(material.canonical()).second) return;
        for (const Material& successor : successor_endgames(material.canonical()))
            if (!(successor == material.canonical())) self(self, successor);
    };
    for (const Material& material : materials) add(add, material);
    fs::create_directories(directory_);
    for (const Material& material : all_endgames(kMaxMen)) {
        if (!needed.count(material)) continue;
        fs::path path = directory_ / table_file_name(material, metric_);
        if (fs::exists(path)) continue;
        auto start = std::chrono::steady_clock::now();
        GenerationStats stats;
        Table table = generate_table(
            material, metric_, [&](const Material& sub) { return find(sub); }, threads, &stats);
        write_table_file(table, path);
        std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        log << "Generated " << material.name() << " " << metric_name(metric_) << ": "
            << stats.positions << " positions, " << stats.levels << " levels, "
            << fs::file_size(path) << " bytes, " << seconds.count() << " s" << std::endl;
        std::lock_guard lock(mutex_);
        problems_.erase(material);
    }
}

}  // namespace wdl::tablebase
