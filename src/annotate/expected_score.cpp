#include "wdl/annotate/expected_score.hpp"

#include <cmath>

#include "wdl/counts/position_key.hpp"
#include "wdl/model/printed_eval.hpp"

namespace wdl::annotate {

double konrod_score(double x, double x05) {
    return x <= 0 ? std::exp2(x / x05 - 1) : 1 - std::exp2(-x / x05 - 1);
}

ExpectedScore::ExpectedScore(model::WdlModel model,
                             std::optional<model::Normalization> normalization,
                             ScoreFunction function)
    : model_(std::move(model)), normalization_(std::move(normalization)), function_(function) {
    for (int mom = 0; mom < kTabulated; ++mom)
        ab_.push_back({model_.a(mom), model_.b(mom), model_.display_scale(mom)});
    if (normalization_ && normalization_->dynamic())
        for (int mom = 0; mom < kTabulated; ++mom)
            scales_.push_back(normalization_->pawn_scale(mom, mom));
}

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
    // The engine's evals are integers: the middle of a printed cp's evals, rounded, as the
    // normalization of counts takes it.
    if (!normalization_)
        return std::nearbyint(model::from_printed_cp(model_, displayed_cp, mom_of(place)));
    const auto& dynamic = normalization_->dynamic();
    if (!dynamic) return normalization_->to_internal(displayed_cp, place.move, place.material);
    int mom = dynamic->mom_type == model::MomType::Move ? place.move : place.material;
    if (mom < 0 || mom >= kTabulated)
        return normalization_->to_internal(displayed_cp, place.move, place.material);
    return normalization_->to_internal_with_scale(displayed_cp, scales_[std::size_t(mom)]);
}

double ExpectedScore::konrod_x05(const PositionPlace& place) const {
    return model_.display_scale(mom_of(place));
}

Outlook ExpectedScore::outlook(int displayed_cp, const PositionPlace& place) const {
    if (displayed_cp >= counts::kMateEval) return {1, 1, 0};
    if (displayed_cp <= -counts::kMateEval) return {0, 0, 1};
    double x = internal_eval(displayed_cp, place);
    double mom = mom_of(place);
    bool tabulated = mom >= 0 && mom < kTabulated;  // integer moms: material, move, ply
    double a = tabulated ? ab_[std::size_t(mom)][0] : model_.a(mom);
    double b = tabulated ? ab_[std::size_t(mom)][1] : model_.b(mom);
    double x05 = tabulated ? ab_[std::size_t(mom)][2] : model_.display_scale(mom);
    Outlook result;
    // The model reads the eval clamped as its engine clamped it (Stockfish 12 to 16).
    result.win = model::win_rate(model_.curve_input(x), a, b);
    result.loss = model::loss_rate(model_.curve_input(x), a, b);
    result.score = function_ == ScoreFunction::Konrod
                       ? konrod_score(x, x05)
                       : model::expected_score_of_rates(result.win, result.loss);
    return result;
}

std::array<int, 3> Outlook::wdl_per_mille() const {
    int w = int(std::lround(1000 * win)), l = int(std::lround(1000 * loss));
    return {w, 1000 - w - l, l};
}

}  // namespace wdl::annotate
