#pragma once

#include <array>

#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_model.hpp"

// The expected score of a position from an engine's displayed eval (annotateWDL): under a fitted
// WDL model, or the seed's probabilistic game result anchored at the model's win-draw balance.
namespace wdl::annotate {

enum class ScoreFunction {
    Model,   // W + D / 2 of the model at the position's mom
    Konrod,  // the seed's closed form in x / x_0_5, with x_0_5 = a(mom) of the model
};

// The seed's probabilistic game result of an eval x (any unit) with win-draw balance x05 in the
// same unit: 2^(x/x05 - 1) for x <= 0, 1 - 2^(-x/x05 - 1) above; 0.5 at 0 and 0.75 at x05.
double konrod_score(double x, double x05);

// Where the eval is, for the model's mom: the full-move number, the material, and whether Black
// is to move (a ply model's mom is the ply).
struct PositionPlace {
    int move = 1;
    int material = 78;
    bool black_to_move = false;
};

class ExpectedScore {
  public:
    // `normalization`: how the engine displayed its evals (internal = displayed * a / 100).
    ExpectedScore(model::WdlModel model, model::Normalization normalization,
                  ScoreFunction function);

    // The expected score of the side whose eval it is, from its displayed eval in centipawns;
    // mates (+-1001 and beyond) score 1 and 0.
    double score(int displayed_cp, const PositionPlace& place) const;
    // The model's W/D/L per mille there (whatever the score function), summing to 1000.
    std::array<int, 3> wdl_per_mille(int displayed_cp, const PositionPlace& place) const;
    // The model's win-draw balance a(mom) in internal units: the seed's x_0_5.
    double win_draw_balance(const PositionPlace& place) const;

    const model::WdlModel& model() const { return model_; }
    ScoreFunction function() const { return function_; }

  private:
    double mom_of(const PositionPlace& place) const;
    double internal_eval(int displayed_cp, const PositionPlace& place) const;

    model::WdlModel model_;
    model::Normalization normalization_;
    ScoreFunction function_;
};

}  // namespace wdl::annotate
