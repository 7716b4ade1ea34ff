#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "wdl/tablebase/table.hpp"

namespace wdl::tablebase {

// Where generated tables live unless told otherwise: $WDLFIT_TABLES, else
// $XDG_CACHE_HOME/wdlfit/tables, else ~/.cache/wdlfit/tables. Never inside a repository.
std::filesystem::path default_table_directory();

// The tables of one metric in one directory, read on first use and kept in memory.
// Thread-safe; tables are never unloaded, so pointers stay valid.
class TableSet {
  public:
    TableSet(std::filesystem::path directory, Metric metric);

    const std::filesystem::path& directory() const { return directory_; }
    Metric metric() const { return metric_; }

    // The table of a material in either colour orientation, or nullptr if its file is missing
    // or unusable; the reason is added to problems() once per material.
    const Table* find(const Material& material);
    // One line per table that was needed but missing or unusable.
    std::vector<std::string> problems() const;

    // Generates (and writes) each listed table that has no file yet, after the tables it
    // depends on; one line per table to `log`. Throws on a write failure.
    void generate_missing(const std::vector<Material>& materials, int threads, std::ostream& log);
    // From now on, a table missing when first needed is generated then (as generate_missing
    // does, with a line saying why to `log`) instead of being a problem: a first run needs
    // only the tables of the endgames its games meet.
    void generate_on_demand(int threads, std::ostream& log);

  private:
    const Table* load(const Material& canonical);

    std::filesystem::path directory_;
    Metric metric_;
    // Recursive: a table generated on demand reads the tables it depends on through find().
    mutable std::recursive_mutex mutex_;
    std::map<Material, std::unique_ptr<Table>> tables_;
    std::map<Material, std::string> problems_;
    std::ostream* on_demand_log_ = nullptr;  // generate missing tables when needed
    int on_demand_threads_ = 1;
};

}  // namespace wdl::tablebase
