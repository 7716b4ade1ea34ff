#pragma once

#include <filesystem>
#include <optional>

#include "wdl/tablebase/table.hpp"

namespace wdl::tablebase {

// Debian's Gaviota tables (package gaviotatb, 3 men, DTM) probed through libgaviotatb. The
// library has global state: one GaviotaTables at a time; probes are thread-safe (serialised).
class GaviotaTables {
  public:
    // Where the gaviotatb package puts its tables (compression scheme 4).
    static std::filesystem::path default_directory();

    // Throws wdl::Error naming the directory if it holds no Gaviota table, or if
    // another GaviotaTables is alive.
    explicit GaviotaTables(const std::filesystem::path& directory = default_directory());
    ~GaviotaTables();
    GaviotaTables(const GaviotaTables&) = delete;
    GaviotaTables& operator=(const GaviotaTables&) = delete;

    // The DTM value of a position (its en-passant square included), or std::nullopt if no
    // table covers it.
    std::optional<Value> probe(const Position& position) const;

  private:
    const char** paths_ = nullptr;
};

}  // namespace wdl::tablebase
