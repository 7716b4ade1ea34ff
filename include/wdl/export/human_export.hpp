#pragma once

#include <string>
#include <vector>

#include "wdl/export/model_export.hpp"
#include "wdl/human/human_model_file.hpp"

// The rating-aware model of human games (humanWDL -o) as a self-contained Python module or
// JavaScript ES module (docs/human-games.md, "Using the model"): its function
// wdl(cp, material, move, elo, opponent_elo, time_control) returns (win, draw, loss) of the side
// to move, computed operation by operation as human::HumanModel::wdl computes them.
namespace wdl::exporting {

// Throws wdl::Error for a language other than Python and JavaScript.
std::string export_human_model(const human::HumanModelFile& file,
                               const std::vector<std::string>& provenance, Language language);

}  // namespace wdl::exporting
