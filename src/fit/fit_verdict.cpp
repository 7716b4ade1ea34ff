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
            return SimplerFit{form, fit.model, fit.uncertainty, false, {}};
        } catch (const Error&) {
            // Too few local fits for this form's coefficients: try the next.
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<double> cubic_positions_needed(std::span<const MomData> moms,
                                             const model::WdlModel& simpler, double target) {
    model::WdlModel cubic = simpler;
    for (auto [coefficients, form] :
         {std::pair{&cubic.as, &cubic.a_form}, std::pair{&cubic.bs, &cubic.b_form}}) {
        if (form->kind != model::CurveKind::Polynomial || form->degree > 3) return std::nullopt;
        // Highest power first: the cubic's leading coefficients are the missing zeros.
        coefficients->insert(coefficients->begin(), std::size_t(3 - form->degree), 0.0);
        *form = model::CurveForm{};
    }
    // The expected information, not the observed one: the positions of these data with the
    // outcomes the simpler model expects at each (what synthWDL --from draws, without the
    // draw's noise). The observed information of the padded cubic, which is no optimum of the
    // observed outcomes, can be indefinite.
    std::vector<MomData> expected(moms.begin(), moms.end());
    for (auto& mom : expected) {
        mom.wins = 0;
        for (auto& cell : mom.cells) {
            double total = cell.total();
            cell.wins = total * simpler.win(cell.eval, mom.mom);
            cell.losses = total * simpler.loss(cell.eval, mom.mom);
            cell.draws = total - cell.wins - cell.losses;
            mom.wins += cell.wins;
        }
    }
    auto uncertainty = probability_fit_uncertainty(expected, cubic);
    if (!uncertainty || !(uncertainty->pawn_value_error > 0)) return std::nullopt;
    double positions = 0;
    for (const auto& mom : moms) positions += mom.total;
    double ratio = uncertainty->pawn_value_error / target;
    return positions * ratio * ratio;
}

std::optional<SimplerFit> simpler_fit(std::span<const MomData> moms, const GroupedData* grouped,
                                      const FitOptions& options, const counts::Grouping* grouping,
                                      const CrossValidationOptions& validation) {
    std::optional<SimplerFit> simpler;
    if (grouped && grouping) {
        try {
            auto selection =
                select_model(*grouped, options, default_selection_forms(), *grouping, validation);
            const auto& chosen = selection.forms[selection.chosen];
            if (chosen.scored())
                simpler = SimplerFit{chosen.forms, chosen.model, chosen.uncertainty, true, {}};
        } catch (const Error&) {
            // Too few groups, or no form scored: fall back to the simplest determined form.
        }
    }
    if (!simpler) simpler = simplest_determined(moms, options);
    if (simpler && options.method == Method::OptimizeProbability)
        simpler->cubic_positions =
            cubic_positions_needed(moms, simpler->model, kPlannedPawnValueError);
    return simpler;
}

}  // namespace wdl::fit
