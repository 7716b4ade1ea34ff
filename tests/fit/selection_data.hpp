#pragma once
// Data and helpers of the model selection tests.

#include <stdexcept>
#include <vector>

#include "sampled_data.hpp"
#include "wdl/fit/model_selection.hpp"
#include "wdl/stats/distributions.hpp"

namespace wdl::fit::test {

constexpr model::CurveForm kPoly(int degree) { return {model::CurveKind::Polynomial, degree}; }

// Games drawn from a model of quadratic a and quartic b (a(m) and b(m) near Stockfish's).
inline synth::SamplerSettings quadratic_and_quartic(std::uint64_t seed) {
    auto settings = sampler(600000, true, 64, seed);
    settings.model.a_form = kPoly(2);
    settings.model.as = {-60, 100, 345};
    settings.model.b_form = kPoly(4);
    settings.model.bs = {-60, 210, -250, 110, 50};
    return settings;
}

inline const FormScore& score_of(const ModelSelection& selection, const FormPair& forms) {
    for (const auto& score : selection.forms)
        if (score.forms == forms) return score;
    throw std::runtime_error("no such form");
}

// The held-out log-loss of `form` minus that of `reference`, paired over the groups.
inline stats::MeanEstimate paired(const FormScore& form, const FormScore& reference) {
    std::vector<double> differences(form.group_log_loss.size());
    for (std::size_t g = 0; g < differences.size(); ++g)
        differences[g] = form.group_log_loss[g] - reference.group_log_loss[g];
    return stats::grouped_mean(differences, form.group_positions);
}

// The forms around the truth: every polynomial pair of degree 1 to 5 (25 forms).
inline std::vector<FormPair> polynomial_forms() {
    std::vector<FormPair> forms;
    for (int a = 1; a <= 5; ++a)
        for (int b = 1; b <= 5; ++b) forms.push_back({kPoly(a), kPoly(b)});
    return forms;
}

}  // namespace wdl::fit::test
