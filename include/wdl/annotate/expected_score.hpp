#pragma once

#include <array>
#include <optional>
#include <vector>

#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/util/enum_names.hpp"

// The expected score of a position from an engine's displayed eval (annotateWDL): under a fitted
// WDL model, or Konrod's probabilistic game result anchored at the eval displayed as +1.00.
namespace wdl::annotate {

enum class ScoreFunction {
    Model,   // W + D / 2 of the model at the position's mom
    Konrod,  // Konrod's closed form in x / x_0_5, with x_0_5 the model's display scale
};
inline constexpr std::array<util::EnumName<ScoreFunction>, 2> kScoreFunctionNames = {{
    {ScoreFunction::Model, "model"},
    {ScoreFunction::Konrod, "konrod"},
}};

// Konrod's probabilistic game result of an eval x (any unit) with win-draw balance x05 in the
// same unit: 2^(x/x05 - 1) for x <= 0, 1 - 2^(-x/x05 - 1) above; 0.5 at 0 and 0.75 at x05.
double konrod_score(double x, double x05);

// Where the eval is, for the model's mom: the full-move number, the material, and whether Black
// is to move (a ply model's mom is the ply).
struct PositionPlace {
    int move = 1;
    int material = 78;
    bool black_to_move = false;
};

// What an eval promises the side whose eval it is: its expected score (by the score function)
// and the model's win and loss rates.
struct Outlook {
    double score = 0.5, win = 0, loss = 0;
    std::array<int, 3> wdl_per_mille() const;  // rounded, summing to 1000
};

class ExpectedScore {
  public:
    // `normalization`: how the engine displayed its evals (internal = displayed * a / 100), for
    // games of another engine than the model's; none: by the model's display rule
    // (model::from_printed_cp).
    ExpectedScore(model::WdlModel model, std::optional<model::Normalization> normalization,
                  ScoreFunction function);

    // The outlook of the side whose eval it is, from its displayed eval in centipawns; mates
    // (+-1001 and beyond) win and lose for sure.
    Outlook outlook(int displayed_cp, const PositionPlace& place) const;
    double score(int displayed_cp, const PositionPlace& place) const {
        return outlook(displayed_cp, place).score;
    }
    std::array<int, 3> wdl_per_mille(int displayed_cp, const PositionPlace& place) const {
        return outlook(displayed_cp, place).wdl_per_mille();
    }
    // Konrod's x_0_5 in internal units: the eval the model's engine displays as +1.00, its
    // display scale (a(mom) since Stockfish 17, the era's constant before).
    double konrod_x05(const PositionPlace& place) const;

    const model::WdlModel& model() const { return model_; }
    ScoreFunction function() const { return function_; }

  private:
    double mom_of(const PositionPlace& place) const;
    double internal_eval(int displayed_cp, const PositionPlace& place) const;

    model::WdlModel model_;
    std::optional<model::Normalization> normalization_;
    ScoreFunction function_;
    // a, b and the display scale of the model, and the normalization's pawn scale, at the
    // integer moms below kTabulated: every move of a game asks for them.
    static constexpr int kTabulated = 512;
    std::vector<std::array<double, 3>> ab_;
    std::vector<double> scales_;  // by the normalization's mom; empty for a static one or none
};

}  // namespace wdl::annotate
