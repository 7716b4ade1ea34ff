#include "wdl/annotate/expected_score.hpp"

#include <cmath>

#include "wdl/counts/position_key.hpp"

namespace wdl::annotate {

double konrod_score(double x, double x05) {
    return x <= 0 ? std::exp2(x / x05 - 1) : 1 - std::exp2(-x / x05 - 1);
}

ExpectedScore::ExpectedScore(model::WdlModel model, model::Normalization normalization,
                             ScoreFunction function)
    : model_(std::move(model)), normalization_(std::move(normalization)), function_(function) {}

double ExpectedScore::mom_of(const PositionPlace& place) const {
    switch (model_.mom_type) {
        case model::MomType::Material:
            return place.material;
        case model::MomType::Move:
            return place.move;
        case model::MomType::Ply:
            return 2.0 * (place.move - 1) + (place.black_to_move ? 1 : 0);
    }
    return place.material;
}

double ExpectedScore::internal_eval(int displayed_cp, const PositionPlace& place) const {
    return normalization_.to_internal(displayed_cp, place.move, place.material);
}

double ExpectedScore::win_draw_balance(const PositionPlace& place) const {
    return model_.a(mom_of(place));
}

double ExpectedScore::score(int displayed_cp, const PositionPlace& place) const {
    if (displayed_cp >= counts::kMateEval) return 1;
    if (displayed_cp <= -counts::kMateEval) return 0;
    double x = internal_eval(displayed_cp, place);
    if (function_ == ScoreFunction::Konrod) return konrod_score(x, win_draw_balance(place));
    return model_.score(x, mom_of(place));
}

std::array<int, 3> ExpectedScore::wdl_per_mille(int displayed_cp,
                                                const PositionPlace& place) const {
    if (displayed_cp >= counts::kMateEval) return {1000, 0, 0};
    if (displayed_cp <= -counts::kMateEval) return {0, 0, 1000};
    double x = internal_eval(displayed_cp, place);
    double mom = mom_of(place);
    int win = int(std::lround(1000 * model_.win(x, mom)));
    int loss = int(std::lround(1000 * model_.loss(x, mom)));
    return {win, 1000 - win - loss, loss};
}

}  // namespace wdl::annotate
