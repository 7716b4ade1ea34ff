#include "wdl/fit/fit_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "wdl/util/error.hpp"

namespace wdl::fit {

FitVerdict fit_verdict(const FitResult& fit) {
    if (fit.minimization && !fit.minimization->converged)
        return {false, "the optimization did not converge: " + fit.minimization->message};
    // A converged search can still end at a curve that is no eval scale.
    double a = fit.model.eval_scale * fit.model.a_at_target();
    if (!std::isfinite(a) || a <= 0)
        return {false, fmt::format("the fitted p_a at the target ({}) is not a positive scale", a)};
    return {};
}

namespace {

// The simplest determined form on plain counts: forms by fewest coefficients (ties: the grid's
// order, polynomials first), the first whose fit on all the data has a verdict of determined
// and a Fisher uncertainty (a positive definite information matrix).
std::optional<SimplerFit> simplest_determined(std::span<const MomData> moms,
                                              const FitOptions& options) {
    auto forms = default_selection_forms();
    std::stable_sort(forms.begin(), forms.end(), [](const FormPair& x, const FormPair& y) {
        return x.parameter_count() < y.parameter_count();
    });
    for (const auto& form : forms) {
        FitOptions form_options = options;
        form_options.a_form = form.a;
        form_options.b_form = form.b;
        try {
            auto fit = fit_model(moms, form_options);
            if (!fit_verdict(fit).determined) continue;
            if (options.method == Method::OptimizeProbability && !fit.uncertainty) continue;
            return SimplerFit{form, fit.model, fit.uncertainty, false};
        } catch (const Error&) {
            // Too few local fits for this form's coefficients: try the next.
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<SimplerFit> simpler_fit(std::span<const MomData> moms, const GroupedData* grouped,
                                      const FitOptions& options, const counts::Grouping* grouping,
                                      const CrossValidationOptions& validation) {
    if (grouped && grouping) {
        try {
            auto selection =
                select_model(*grouped, options, default_selection_forms(), *grouping, validation);
            const auto& chosen = selection.forms[selection.chosen];
            if (chosen.scored())
                return SimplerFit{chosen.forms, chosen.model, chosen.uncertainty, true};
        } catch (const Error&) {
            // Too few groups, or no form scored: fall back to the simplest determined form.
        }
    }
    return simplest_determined(moms, options);
}

}  // namespace wdl::fit
