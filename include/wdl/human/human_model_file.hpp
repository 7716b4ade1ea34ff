#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/human_counts.hpp"
#include "wdl/human/human_model.hpp"

// The rating-aware model as a file (docs/formats.md, "Human model files"), as humanWDL writes it
// and queryWDL and exportWDL read it:
//   {"kind": "wdlfit human model", "version": 1, "materialTarget": 58, "levelCentre": 1500,
//    "ratingScale": 400, "cpCeiling": 1000,
//    "classes": [{"speed": "rapid", "form": "level+difference", "parameterNames": [...],
//                 "parameters": [...], "standardErrors": [...] or null,
//                 "covariance": [[...]] or null, "positions": N, "matePositions": M,
//                 "groups": G, "ratingRange": [low, high]}, ...]}
// The constants are written for readers in other languages; they are checked on reading.
namespace wdl::human {

inline constexpr std::string_view kHumanModelKind = "wdlfit human model";

// One speed class's fitted model and what it was fitted on.
struct SpeedClassModel {
    counts::SpeedClass speed = counts::SpeedClass::Rapid;
    HumanModel model;
    std::optional<std::vector<double>> standard_errors;  // jackknife over groups
    std::optional<std::vector<std::vector<double>>> covariance;
    double positions = 0, mate_positions = 0;
    int groups = 0;
    int rating_low = 0, rating_high = 0;  // the side to move's ratings fitted (bin centres)
};

struct HumanModelFile {
    std::vector<SpeedClassModel> classes;
    // The class's model, or nothing.
    const SpeedClassModel* find(counts::SpeedClass speed) const;
};

nlohmann::ordered_json human_model_json(const HumanModelFile& file);
// Throws wdl::Error naming `source` for another kind of document or a malformed field.
HumanModelFile human_model_from_json(const nlohmann::json& json, std::string_view source);
// Whether a JSON document is a human model (its "kind").
bool is_human_model_json(const nlohmann::json& json);
// The human model in the file `name`, if it is one; nothing for what is not a file or not a
// human model (a registry name, a scoreWDL --json file, a Stockfish source), so that the
// programs taking a --model try the other kinds.
std::optional<HumanModelFile> human_model_in(const std::string& name);

}  // namespace wdl::human
