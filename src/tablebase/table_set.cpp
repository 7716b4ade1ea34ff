#include "wdl/tablebase/table_set.hpp"

#include <chrono>
#include <cstdlib>

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

fs::path TableSet::path_of(const Material& canonical) const {
    return directory_ / table_file_name(canonical, metric_);
}

const Table* TableSet::load(const Material& canonical, std::unique_lock<std::mutex>& lock) {
    released_.wait(lock, [&] { return !generating_.count(canonical); });
    if (auto found = tables_.find(canonical); found != tables_.end()) return found->second.get();
    if (problems_.count(canonical)) return nullptr;
    fs::path path = path_of(canonical);
    std::error_code error;
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
    Material canonical = material.canonical();
    std::unique_lock lock(mutex_);
    if (auto found = tables_.find(canonical); found != tables_.end()) return found->second.get();
    if (on_demand_log_ && !problems_.count(canonical) && claim(canonical, lock)) {
        std::ostream& log = *on_demand_log_;
        int threads = on_demand_threads_;
        log << "Generating the " << metric_name(metric_) << " table of " << canonical.name()
            << " (met in the games) into " << directory_.string() << " ..." << std::endl;
        lock.unlock();
        generate(canonical, threads, log);
        lock.lock();
    }
    return load(canonical, lock);
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
    for (const Material& material : materials) {
        Material canonical = material.canonical();
        std::unique_lock lock(mutex_);
        if (!claim(canonical, lock)) continue;
        lock.unlock();
        generate(canonical, threads, log);
    }
}

bool TableSet::claim(const Material& canonical, std::unique_lock<std::mutex>& lock) {
    released_.wait(lock, [&] { return !generating_.count(canonical); });
    std::error_code error;
    if (fs::exists(path_of(canonical), error)) return false;
    generating_.insert(canonical);
    return true;
}

void TableSet::generate(const Material& canonical, int threads, std::ostream& log) {
    // No lock is held here: the generator's OpenMP workers must never wait for one, and other
    // threads go on reading tables. A thread waits only for tables with fewer men or pawns
    // than those it claimed, so waits cannot go round in a circle.
    auto release = [&] {
        std::lock_guard lock(mutex_);
        generating_.erase(canonical);
        problems_.erase(canonical);
        released_.notify_all();
    };
    try {
        std::vector<Material> subgames = successor_endgames(canonical);
        std::erase(subgames, canonical);
        generate_missing(subgames, threads, log);
        auto start = std::chrono::steady_clock::now();
        GenerationStats stats;
        Table table = generate_table(
            canonical, metric_, [&](const Material& sub) { return find(sub); }, threads, &stats);
        fs::create_directories(directory_);
        fs::path path = path_of(canonical);
        write_table_file(table, path);
        std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        std::lock_guard lock(mutex_);  // the log is shared with other threads' generations
        log << "Generated " << canonical.name() << " " << metric_name(metric_) << ": "
            << stats.positions << " positions, " << stats.levels << " levels, "
            << fs::file_size(path) << " bytes, " << seconds.count() << " s" << std::endl;
    } catch (...) {
        release();
        throw;
    }
    release();
}

}  // namespace wdl::tablebase
