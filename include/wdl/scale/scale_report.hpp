#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "wdl/scale/scale_comparison.hpp"

// scaleWDL's printed report and its --json twin (docs/comparison.md).
namespace wdl::scale {

// What the intervals are and what they assume, printed once before the comparisons.
std::string format_method(int game_groups, double confidence, bool asymmetry, int folds);

// One comparison's block: both engines' constants, New against Base with paired and unpaired
// errors, the verdict, and each engine's asymmetry.
std::string format_comparison(const ScaleComparison& comparison, double confidence);

// The held-out verdict on the asymmetric model: scales per side against strength alone.
std::string held_out_verdict(const HeldOutDifference& held_out);

nlohmann::ordered_json comparison_json(const ScaleComparison& comparison);

}  // namespace wdl::scale
