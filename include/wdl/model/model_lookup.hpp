#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "wdl/model/wdl_model.hpp"

// Every program that takes a model takes it the same way.
namespace wdl::model {

struct NamedModel {
    std::string name;         // as the user gave it
    std::string description;  // where it comes from, e.g. "Stockfish 17 (2054add2, 2024-09-03)"
    WdlModel model;
    // The covariance of as then bs, where the source states one (a scoreWDL --json file).
    std::optional<Covariance> covariance;
};

// A model given as a registry name (sf18, sf17.1, ..., sf, sf@DATE, sf@COMMIT), a scoreWDL --json
// file (or any JSON file with as and bs), a Stockfish source tree DIR, or a revision DIR@REV of a
// Stockfish git checkout. Throws wdl::Error with one line naming the spec when none fits.
NamedModel load_model(std::string_view spec);

}  // namespace wdl::model
