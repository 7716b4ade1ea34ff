#include "wdl/markov/outcomes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/util/error.hpp"

namespace wdl::markov {

std::vector<Wdl> alliot_class_outcomes(int classes) {
    std::vector<Wdl> outcomes(std::size_t(classes), Wdl{0, 1, 0});
    outcomes.front() = {0, 0, 1};
    outcomes.back() = {1, 0, 0};
    return outcomes;
}

EvalOutcomes::EvalOutcomes(model::WdlModel model, std::optional<model::Normalization> normalization,
                           std::string description)
    : model_(std::move(model)),
      normalization_(std::move(normalization)),
      description_(std::move(description)) {}

Wdl EvalOutcomes::at(int centipawns, int move, int material) const {
    if (centipawns >= games::kMateScore) return {1, 0, 0};
    if (centipawns <= -games::kMateScore) return {0, 0, 1};
    double mom = model_.mom_type == model::MomType::Material ? material
                 : model_.mom_type == model::MomType::Move   ? move
                                                             : 2.0 * (move - 1);
    double internal = normalization_ ? normalization_->to_internal(centipawns, move, material)
                                     : model_.from_cp(centipawns, mom);
    return {model_.win(internal, mom), model_.draw(internal, mom), model_.loss(internal, mom)};
}

std::vector<Wdl> model_class_outcomes(const ClassScheme& classes, const EvalOutcomes& outcomes,
                                      const counts::CountMap& positions) {
    std::size_t n = std::size_t(classes.size());
    std::vector<Wdl> sums(n);
    std::vector<double> weights(n, 0.0);
    // Summed in key order: the map's own order depends on how threads filled it, and sums of
    // doubles depend on their order.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> cells;
    cells.reserve(positions.distinct_keys());
    positions.for_each(
        [&](std::uint64_t packed, std::uint64_t count) { cells.emplace_back(packed, count); });
    std::sort(cells.begin(), cells.end());
    for (const auto& [packed, count] : cells) {
        auto key = counts::unpack_key(packed);
        auto index = std::size_t(classes.class_of(key.eval));
        Wdl wdl = outcomes.at(key.eval, key.move, key.material);
        double weight = double(count);
        sums[index].win += weight * wdl.win;
        sums[index].draw += weight * wdl.draw;
        sums[index].loss += weight * wdl.loss;
        weights[index] += weight;
    }
    int target = outcomes.model().mom_target;
    for (std::size_t i = 0; i < n; ++i) {
        if (weights[i] > 0) {
            sums[i] = {sums[i].win / weights[i], sums[i].draw / weights[i],
                       sums[i].loss / weights[i]};
            continue;
        }
        double low = classes.lower(int(i)), high = classes.upper(int(i));
        double eval = !std::isfinite(low) ? high : !std::isfinite(high) ? low : (low + high) / 2;
        sums[i] = outcomes.at(int(std::lround(eval)), target, target);
    }
    return sums;
}

FittedOutcomes fit_outcomes(const counts::CountMap& positions) {
    FittedOutcomes result;
    auto normalization = model::Normalization::from_json(model::kDefaultNormalizeData);
    fit::CountGrid grid(fit::GridFilter{}, normalization);
    positions.for_each([&](std::uint64_t packed, std::uint64_t count) {
        grid.add(counts::unpack_key(packed), std::int64_t(count));
    });
    result.positions = std::uint64_t(grid.totals().total());
    if (result.positions == 0) {
        result.failure = "no positions within scoreWDL's default filters";
        return result;
    }
    fit::FitOptions options;
    options.pawn_value = normalization.pawn_value();
    try {
        auto fit = fit::fit_model(fit::collect_mom_data(grid), options);
        if (fit.minimization && !fit.minimization->converged) {
            result.failure = "the fit did not converge: " + fit.minimization->message;
            return result;
        }
        result.outcomes.emplace(
            fit.model, normalization,
            fmt::format("fitted on {} positions of these games (NormalizeToPawnValue {}, spread "
                        "{}, evals read with Stockfish 18's normalization)",
                        result.positions, fit.model.pawn_value(), fit.model.spread()));
    } catch (const Error& error) {
        result.failure = error.what();
    }
    return result;
}

}  // namespace wdl::markov
