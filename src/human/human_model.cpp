#include "wdl/human/human_model.hpp"

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
            return 1;
        case HumanForm::LevelTempoDifference:
            return 2;
        default:
            return 0;
    }
}

bool has_ceiling(HumanForm form) { return form == HumanForm::TempoCeilingDifference; }

bool has_difference(HumanForm form) { return form != HumanForm::Flat && form != HumanForm::Level; }

std::size_t tempo_index(HumanForm form) {
    return std::size_t(2 * kCurveTerms + 2 * level_terms(form));
}

std::size_t ceiling_index(HumanForm form) {
    return tempo_index(form) + std::size_t(tempo_terms(form));
}

int parameter_count(HumanForm form) {
    return 2 * kCurveTerms + 2 * level_terms(form) + tempo_terms(form) +
           (has_ceiling(form) ? 1 : 0) + (has_difference(form) ? 1 : 0);
}

std::vector<std::string> parameter_names(HumanForm form) {
    std::vector<std::string> names;
    for (const char* curve : {"A", "B"})
        for (int i = 0; i < kCurveTerms; ++i) names.push_back(curve + std::to_string(i));
    for (const char* level : {"alpha", "beta"})
        for (int j = 1; j <= level_terms(form); ++j) names.push_back(level + std::to_string(j));
    for (int j = 0; j < tempo_terms(form); ++j) names.push_back("tau" + std::to_string(j));
    if (has_ceiling(form)) names.emplace_back("kappa");
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

double HumanModel::shift(const Situation& at) const {
    double tempo = 0;
    for (int j = tempo_terms(form); j-- > 0;)
        tempo = tempo * level_of(at) + parameters[tempo_index(form) + std::size_t(j)];
    if (!has_difference(form)) return tempo;
    return tempo + parameters.back() * (at.rating - at.opponent_rating) / kRatingScale;
}

double HumanModel::pawns(double cp) const {
    const double x = std::clamp(cp, -kCpCeiling, kCpCeiling) / 100;
    if (!has_ceiling(form) || std::abs(cp) < kCpCeiling) return x;
    return x + std::copysign(parameters[ceiling_index(form)], cp);
}

std::array<double, 3> HumanModel::wdl(double cp, const Situation& at) const {
    const double x = pawns(cp);
    const double a_value = a(at), b_value = model::effective_spread(b(at)), d = shift(at);
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
