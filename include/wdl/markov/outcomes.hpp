#pragma once

#include <optional>
#include <string>
#include <vector>

#include "wdl/counts/count_map.hpp"
#include "wdl/markov/eval_classes.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_model.hpp"

// What the classes of a chain are worth as results: Alliot's gain vector and a WDL model's
// W/D/L per class (docs/markov.md).
namespace wdl::markov {

// Probabilities (or shares) of a win, draw and loss from one player's view.
struct Wdl {
    double win = 0, draw = 0, loss = 0;

    double score() const { return win + draw / 2; }
    Wdl flipped() const { return {loss, draw, win}; }
};

// Alliot's reading of the chain's classes: the last class wins, the first loses, every other
// one is a draw (its gain vector (0, 1/2, ..., 1/2, 1)).
std::vector<Wdl> alliot_class_outcomes(int classes);

// The W/D/L a model gives a displayed eval (centipawns, mover's view) in a position.
class EvalOutcomes {
  public:
    // A model fitted to these games' counts converts their evals with `normalization` (as
    // scoreWDL does); a given model reads displayed evals as its engine displays them, 1.00
    // being a(mom) internal units.
    EvalOutcomes(model::WdlModel model, std::optional<model::Normalization> normalization,
                 std::string description);

    Wdl at(int centipawns, int move, int material) const;
    const std::string& description() const { return description_; }
    const model::WdlModel& model() const { return model_; }

  private:
    model::WdlModel model_;
    std::optional<model::Normalization> normalization_;
    std::string description_;
};

// The model's W/D/L per class: its average over the positions counted in `positions` (the
// scanner's keys, evals binned) whose eval lies in the class; mates win or lose outright. A
// class without positions gets the model at the class's middle (or its finite limit) at the
// target mom.
std::vector<Wdl> model_class_outcomes(const ClassScheme& classes, const EvalOutcomes& outcomes,
                                      const counts::CountMap& positions);

// A model fitted to counted positions with the project's fitter (scoreWDL's defaults:
// optimizeProbability on material, target 58, Stockfish 18's normalization), or why not.
struct FittedOutcomes {
    std::optional<EvalOutcomes> outcomes;
    std::string failure;  // when there is no model
    std::uint64_t positions = 0;
};
FittedOutcomes fit_outcomes(const counts::CountMap& positions);

}  // namespace wdl::markov
