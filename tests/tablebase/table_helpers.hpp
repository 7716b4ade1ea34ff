#pragma once

#include <map>

#include "wdl/tablebase/generator.hpp"

namespace wdl::tablebase::testing {

// Tables generated in memory, each after the tables it needs.
class MemoryTables {
  public:
    explicit MemoryTables(Metric metric) : metric_(metric) {}

    const Table& get(const Material& material) {
        Material canonical = material.canonical();
        if (auto found = tables_.find(canonical); found != tables_.end()) return found->second;
        for (const Material& successor : successor_endgames(canonical))
            if (!(successor == canonical)) get(successor);
        Table table = generate_table(
            canonical, metric_, [this](const Material& m) { return find(m); }, threads_);
        return tables_.emplace(canonical, std::move(table)).first->second;
    }
    const Table* find(const Material& material) {
        auto found = tables_.find(material.canonical());
        return found == tables_.end() ? nullptr : &found->second;
    }
    void set_threads(int threads) { threads_ = threads; }

  private:
    Metric metric_;
    int threads_ = 0;
    std::map<Material, Table> tables_;
};

inline const Material& material(const char* name) {
    static std::map<std::string, Material> parsed;
    auto [it, added] = parsed.emplace(name, Material{});
    if (added) it->second = *Material::parse(name);
    return it->second;
}

// The largest winner's-move depth of the positions with `side` to move and `outcome`.
inline int max_depth(const Table& table, chess::Color side, Outcome outcome) {
    int deepest = -1;
    for (std::uint8_t c : table.codes(side)) {
        if (c == code::none || c == code::draw) continue;
        Value value = code::value_of(c);
        if (value.outcome == outcome) deepest = std::max(deepest, value.winner_moves());
    }
    return deepest;
}

}  // namespace wdl::tablebase::testing
