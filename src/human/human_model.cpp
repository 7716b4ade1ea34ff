#include "wdl/human/human_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "wdl/model/wdl_math.hpp"

namespace wdl::human {

std::string_view human_form_name(HumanForm form) { return util::name_of(kHumanFormNames, form); }

std::optional<HumanForm> human_form_from_name(std::string_view name) {
    return util::value_named(kHumanFormNames, name);
}

int level_terms(HumanForm form) {
    switch (form) {
        case HumanForm::Flat:
        case HumanForm::Difference:
            return 0;
        case HumanForm::Level:
        case HumanForm::LevelDifference:
        case HumanForm::TempoDifference:
        case HumanForm::LevelTempoDifference:
        case HumanForm::TempoCeilingDifference:
        case HumanForm::TempoCeilingMapDifference:
        case HumanForm::TempoCeilingMapZeroDifference:
        case HumanForm::TempoCeilingMapZeroSlipDifference:
            return 1;
        case HumanForm::QuadraticDifference:
            return 2;
    }
    return 0;
}

int tempo_terms(HumanForm form) {
    switch (form) {
        case HumanForm::TempoDifference:
        case HumanForm::TempoCeilingDifference:
        case HumanForm::TempoCeilingMapDifference:
        case HumanForm::TempoCeilingMapZeroDifference:
        case HumanForm::TempoCeilingMapZeroSlipDifference:
            return 1;
        case HumanForm::LevelTempoDifference:
            return 2;
        default:
            return 0;
    }
}

bool has_ceiling(HumanForm form) {
    return form == HumanForm::TempoCeilingDifference || has_eval_map(form);
}

bool has_eval_map(HumanForm form) {
    return form == HumanForm::TempoCeilingMapDifference || has_zero_eval(form);
}

bool has_zero_eval(HumanForm form) {
    return form == HumanForm::TempoCeilingMapZeroDifference || has_slip(form);
}

bool has_slip(HumanForm form) { return form == HumanForm::TempoCeilingMapZeroSlipDifference; }

int eval_terms(HumanForm form) {
    return (has_ceiling(form) ? 1 : 0) + (has_eval_map(form) ? int(kEvalMapKnots.size()) : 0) +
           (has_slip(form) ? 1 : 0);
}

double eval_map_weight(std::size_t knot, double pawns) {
    const double at = kEvalMapKnots[knot];
    const double below = knot == 0 ? 0.0 : kEvalMapKnots[knot - 1];
    const double above =
        knot + 1 == kEvalMapKnots.size() ? kCpCeiling / 100 : kEvalMapKnots[knot + 1];
    if (pawns <= below || pawns >= above) return 0;
    return pawns <= at ? (pawns - below) / (at - below) : (above - pawns) / (above - at);
}

bool has_difference(HumanForm form) { return form != HumanForm::Flat && form != HumanForm::Level; }

std::size_t tempo_index(HumanForm form) {
    return std::size_t(2 * kCurveTerms + 2 * level_terms(form));
}

std::size_t ceiling_index(HumanForm form) {
    return tempo_index(form) + std::size_t(tempo_terms(form));
}

std::size_t eval_map_index(HumanForm form) {
    return ceiling_index(form) + (has_ceiling(form) ? 1 : 0);
}

std::size_t slip_index(HumanForm form) {
    return eval_map_index(form) + (has_eval_map(form) ? kEvalMapKnots.size() : 0);
}

std::size_t zero_eval_index(HumanForm form) { return slip_index(form) + (has_slip(form) ? 1 : 0); }

int parameter_count(HumanForm form) {
    return 2 * kCurveTerms + 2 * level_terms(form) + tempo_terms(form) + eval_terms(form) +
           (has_zero_eval(form) ? 1 : 0) + (has_difference(form) ? 1 : 0);
}

std::vector<std::string> parameter_names(HumanForm form) {
    std::vector<std::string> names;
    for (const char* curve : {"A", "B"})
        for (int i = 0; i < kCurveTerms; ++i) names.push_back(curve + std::to_string(i));
    for (const char* level : {"alpha", "beta"})
        for (int j = 1; j <= level_terms(form); ++j) names.push_back(level + std::to_string(j));
    for (int j = 0; j < tempo_terms(form); ++j) names.push_back("tau" + std::to_string(j));
    if (has_ceiling(form)) names.emplace_back("kappa");
    if (has_eval_map(form))
        for (double knot : kEvalMapKnots) names.push_back(fmt::format("map{:g}", knot));
    if (has_slip(form)) names.emplace_back("eta");
    if (has_zero_eval(form)) names.emplace_back("zeta");
    if (has_difference(form)) names.emplace_back("g");
    return names;
}

namespace {

double level_of(const Situation& at) {
    return ((at.rating + at.opponent_rating) / 2 - kLevelCentre) / kRatingScale;
}

}  // namespace

CurveFactors curve_factors(const std::vector<double>& parameters, std::size_t cubic,
                           std::size_t exponent, int terms, double t, double l) {
    CurveFactors factors;
    for (std::size_t i = kCurveTerms; i-- > 0;)
        factors.cubic = factors.cubic * t + parameters[cubic + i];
    double power = 0, l_power = 1;
    for (int j = 0; j < terms; ++j) {
        l_power *= l;
        power += parameters[exponent + std::size_t(j)] * l_power;
    }
    factors.level = std::exp(power);
    return factors;
}

double HumanModel::a(const Situation& at) const {
    const int terms = level_terms(form);
    return curve_factors(parameters, 0, 2 * kCurveTerms, terms, at.material / kMaterialTarget,
                         level_of(at))
        .value();
}

double HumanModel::b(const Situation& at) const {
    const int terms = level_terms(form);
    return curve_factors(parameters, kCurveTerms, std::size_t(2 * kCurveTerms + terms), terms,
                         at.material / kMaterialTarget, level_of(at))
        .value();
}

double HumanModel::zero_eval_factor(double cp) const {
    if (!has_zero_eval(form) || !is_zero_eval(cp)) return 1;
    return std::exp(parameters[zero_eval_index(form)]);
}

double HumanModel::shift(const Situation& at) const {
    double tempo = 0;
    for (int j = tempo_terms(form); j-- > 0;)
        tempo = tempo * level_of(at) + parameters[tempo_index(form) + std::size_t(j)];
    if (!has_difference(form)) return tempo;
    return tempo + parameters.back() * (at.rating - at.opponent_rating) / kRatingScale;
}

double HumanModel::pawns(double cp) const { return pawns(cp, pawns_gradient(cp)); }

double HumanModel::pawns(double cp, const EvalTerms& gradient) const {
    double moved = std::clamp(cp, -kCpCeiling, kCpCeiling) / 100;
    for (std::size_t i = 0; i < std::size_t(eval_terms(form)); ++i)
        moved += gradient[i] * parameters[ceiling_index(form) + i];
    return moved;
}

EvalTerms HumanModel::pawns_gradient(double cp) const {
    EvalTerms gradient{};
    const double sign = cp < 0 ? -1.0 : 1.0;
    const bool at_ceiling = std::abs(cp) >= kCpCeiling;
    std::size_t next = 0;
    if (has_ceiling(form)) gradient[next++] = at_ceiling ? sign : 0.0;
    if (has_eval_map(form)) {
        if (!at_ceiling)
            for (std::size_t knot = 0; knot < kEvalMapKnots.size(); ++knot)
                gradient[next + knot] = sign * eval_map_weight(knot, std::abs(cp) / 100);
        next += kEvalMapKnots.size();
    }
    if (has_slip(form)) gradient[next] = std::min(std::abs(cp), kCpCeiling) / 100;
    return gradient;
}

std::array<double, 3> HumanModel::wdl(double cp, const Situation& at) const {
    const double x = pawns(cp);
    const double a_value = a(at) * zero_eval_factor(cp), b_value = model::effective_spread(b(at)),
                 d = shift(at);
    const double win = model::logistic((x - a_value) / b_value + d);
    const double loss = model::logistic((-x - a_value) / b_value - d);
    return {win, 1 - win - loss, loss};
}

HumanModel starting_model(HumanForm form, double a0, double b0) {
    HumanModel model{form, std::vector<double>(std::size_t(parameter_count(form)), 0.0)};
    model.parameters[0] = a0;
    model.parameters[kCurveTerms] = b0;
    return model;
}

}  // namespace wdl::human
