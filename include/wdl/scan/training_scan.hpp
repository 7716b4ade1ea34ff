#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/scan/training_counter.hpp"
#include "wdl/training/training_data.hpp"

// scoreWDLstat's scan of training data: the positions of .binpack, .plain and bullet files
// counted on several threads, a huge file shared by all of them (docs/training-data.md).
namespace wdl::scan {

struct TrainingScanSettings {
    TrainingCountingRules rules;
    int threads = 1;
    std::size_t chunk_bytes = std::size_t{4} << 20;
    std::vector<training::TrainingFormat> formats;  // of each file
};

struct TrainingScanResult {
    counts::PositionCounts counts;  // grouped with TrainingCountingRules::grouping
    TrainingTally tally;
    games::ReadSummary files;
};

// Scans the files, each thread counting into its own map; the maps are merged at the end.
TrainingScanResult scan_training_files(const std::vector<std::filesystem::path>& files,
                                       const TrainingScanSettings& settings,
                                       games::ReadProgress* progress = nullptr);

// The positions of the units counted (a score or none, before the last counted move or
// after) per unit: a game's dozens for games of .plain and .bin, one for bullet's lines.
double positions_per_unit(const TrainingTally& tally);

// Below this mean the units cannot be games: even a writer that skips positions of its games
// leaves runs of several records that continue each other, and only records out of game order
// (shuffled data, or bullet's lines) make nearly every unit a single position.
inline constexpr double kFewestPositionsPerGame = 2.0;

// The warning that the units are not games, when their mean is below kFewestPositionsPerGame
// (then groups of them hold positions that a jackknife takes as independent); else empty.
std::string units_warning(const TrainingScanResult& result);

// The closing summary: files, records, units, positions counted and not, positions per unit,
// speed.
std::string format_training_summary(const TrainingScanResult& result, double seconds);
// The same as JSON (with the warnings).
nlohmann::ordered_json training_summary_json(const TrainingScanResult& result, double seconds);

}  // namespace wdl::scan
