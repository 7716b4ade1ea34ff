#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/competence/analysis.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/tablebase/table.hpp"
#include "wdl/util/enum_names.hpp"

// scoreCompetence: apparent endgame competence from games and endgame tables, and wins not
// converted (docs/programs.md).
namespace wdl::commands {

enum class TableSourceKind { Own, Gaviota };
inline constexpr std::array<util::EnumName<TableSourceKind>, 2> kTableSourceKindNames = {{
    {TableSourceKind::Own, "own"},
    {TableSourceKind::Gaviota, "gaviota"},
}};

struct ScoreCompetenceOptions {
    games::GameSelection games;
    TableSourceKind tables = TableSourceKind::Own;
    tablebase::Metric metric = tablebase::Metric::DTC;
    std::filesystem::path table_directory;    // own tables
    std::filesystem::path gaviota_directory;  // Gaviota tables
    bool generate = false;                    // generate every missing own table first
    bool generate_on_demand = true;           // generate a missing table when games need it
    double kappa = 1.0;
    double c_min = 0, c_max = 50, c_step = 0.1;
    std::optional<std::filesystem::path> prior;
    competence::FiftyMoveRule fifty_move_rule = competence::FiftyMoveRule::Skip;
    int concurrency = 1;
    std::optional<std::filesystem::path> json;
    std::optional<std::filesystem::path> decisions;
    std::optional<std::filesystem::path> plot;
};

// Runs the analysis with the report on stdout, warnings and the progress line on stderr.
// Throws wdl::Error for bad options, missing inputs and when no file could be read.
void score_competence(const ScoreCompetenceOptions& options);

}  // namespace wdl::commands
