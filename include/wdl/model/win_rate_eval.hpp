#pragma once

#include <cmath>

#include "wdl/model/wdl_model.hpp"

// The inverse of the model's win rate: which eval gives a wanted win rate (queryWDL --winRate).
namespace wdl::model {

// The eval x at which win_rate(x, a, b) = w, for 0 < w < 1: x = a + b ln(w / (1 - w)).
inline double eval_for_win_rate(double w, double a, double b) {
    return a + effective_spread(b) * std::log(w / (1.0 - w));
}

// The internal eval at which the engine wins a fraction `win` (0 < win < 1) of its games at
// `mom` (clamped as the model clamps it).
inline double eval_for_win(const WdlModel& model, double win, double mom) {
    return eval_for_win_rate(win, model.a(mom), model.b(mom));
}

}  // namespace wdl::model
