#pragma once

#include "wdl/model/wdl_model.hpp"

// What a model reads off the games: the eval its engine printed, taken back by its display rule
// (display_rule.hpp), and the mom of a counted position.
namespace wdl::model {

// The middle, in displayed centipawns, of the evals the engine printed as cp: where it truncated
// 100 v / N toward zero, cp > 0 stands for [cp, cp + 1), so cp + 1/2 (0 for (-1, 1)); where it
// rounded, cp itself. Reading a printed cp there assumes its evals spread evenly over that range.
inline double printed_cp_middle(const DisplayRule& rule, double cp) {
    if (!rule.pawn_divisor || cp == 0) return cp;
    return cp > 0 ? cp + 0.5 : cp - 0.5;
}

// The internal eval a printed cp stands for: the middle of the evals the model's engine printed
// as cp, WdlModel::from_cp of it.
inline double from_printed_cp(const WdlModel& model, double cp, double mom) {
    return model.from_cp(printed_cp_middle(model.display, cp), mom);
}

// The mom a model reads off a counted position, whose key holds no side to move: a ply model's
// ply is White's, 2 (move - 1), as queryWDL and compareWDL read it.
inline double mom_of_counted(const WdlModel& model, int move, int material) {
    if (model.mom_type == MomType::Ply) return 2.0 * (move - 1);
    return model.mom_type == MomType::Move ? move : material;
}

}  // namespace wdl::model
