#pragma once

#include <optional>

#include "wdl/model/wdl_model.hpp"

// Where two models meet: a move model and a ply model describe the same moment of a game at
// ply = 2 (move - 1) (White to move), a material model meets neither.
namespace wdl::model {

// The mom of a model of type `other` corresponding to `mom` of a model of type `reference`: the
// same for the same mom type, the ply of a move and back; nothing for material against the
// others.
std::optional<double> corresponding_mom(MomType reference, double mom, MomType other);

// The eval in pawns that `to` displays for the internal eval that `from` displays as `pawns` at
// `from`'s mom `mom` (each by its display rule, unrounded), or nothing when `to`'s mom does not
// correspond.
std::optional<double> displayed_by(const WdlModel& from, double mom, double pawns,
                                   const WdlModel& to);

}  // namespace wdl::model
