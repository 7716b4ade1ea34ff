#include "wdl/fit/fit_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "wdl/fit/fit_verdict.hpp"
#include "wdl/model/model_file.hpp"
#include "wdl/util/python_format.hpp"

namespace wdl::fit {

std::string skipped_moms_warning(std::string_view mom_name, const std::vector<int>& moms) {
    return fmt::format("Warning: Too little data, so skipping {} values {}", mom_name,
                       util::numpy_int_array(moms));
}

namespace {

// "{c0, c1, ...}" with 8 decimals, as the original prints as[] and bs[].
std::string coefficient_list(const model::Coefficients& c) {
    return fmt::format("{{{:.8f}}}", fmt::join(c, ", "));
}

// The C++ expression of a curve in Stockfish's win_rate_params, whose argument is m:
// "((as[0] * m + as[1]) * m + as[2])" and, for a rational curve, "... / (1 + as[3] * m)".
std::string curve_code(model::CurveForm form, std::string_view name) {
    std::string code = fmt::format("{}[0]", name);
    for (int k = 1; k <= form.degree; ++k) code = fmt::format("({} * m + {}[{}])", code, name, k);
    if (form.kind == model::CurveKind::Rational)
        code = fmt::format("{} / (1 + {}[{}] * m)", code, name, form.degree + 1);
    return code;
}

std::string summary_lines(const model::WdlModel& model) {
    std::string text;
    text += fmt::format("const int NormalizeToPawnValue = {};\n", model.pawn_value());
    text += fmt::format("Corresponding spread = {};\n", model.spread());
    text += fmt::format("Corresponding normalized spread = {};\n",
                        util::python_float_repr(model.normalized_spread()));
    text += fmt::format("Draw rate at 0.0 eval at {} {} = {};\n", mom_type_name(model.mom_type),
                        model.mom_target, util::python_float_repr(model.draw_rate_at_zero()));
    text += "Parameters in internal value units: \n";
    text += fmt::format("p_a = {}\n", model::curve_text(model.a_form, model.as, model.mom_target));
    text += fmt::format("p_b = {}\n", model::curve_text(model.b_form, model.bs, model.mom_target));
    text += fmt::format("    constexpr double as[] = {};\n", coefficient_list(model.as));
    text += fmt::format("    constexpr double bs[] = {};\n", coefficient_list(model.bs));
    if (!model.has_stockfish_form()) {
        text += fmt::format(
            "Stockfish's win_rate_params evaluates cubics; for p_a as {} and p_b as {} its two "
            "lines must become:\n    double a = {};\n    double b = {};\n",
            model::curve_form_name(model.a_form), model::curve_form_name(model.b_form),
            curve_code(model.a_form, "as"), curve_code(model.b_form, "bs"));
    }
    return text;
}

}  // namespace

std::string model_summary(const model::WdlModel& model, bool determined) {
    std::string text = summary_lines(model);
    if (determined) return text;
    // Every line, the drop-in constants above all, says it is not to be copied.
    std::string marked;
    for (char c : text) {
        if (c == '\n') marked += kNotDeterminedMarker;
        marked += c;
    }
    return marked;
}

std::string simpler_fit_report(const std::optional<SimplerFit>& simpler, const FitResult& fit,
                               std::int64_t positions, std::optional<std::int64_t> games) {
    std::string text = fmt::format(
        "What to do next: these {} positions{} do not determine the {} coefficients of {}/{}.\n",
        positions, games ? fmt::format(" of {} games", *games) : "",
        fit.model.as.size() + fit.model.bs.size(), model::curve_form_name(fit.model.a_form),
        model::curve_form_name(fit.model.b_form));
    if (!simpler) {
        return text +
               "No simpler form is determined by these data either: more games are needed.\n";
    }
    const auto& model = simpler->model;
    text += simpler->held_out
                ? fmt::format(
                      "The form --selectModel chooses on these data (the fewest coefficients "
                      "within one standard error of the best held-out log-loss): {}.\n",
                      form_pair_name(simpler->forms))
                : fmt::format(
                      "The simplest form these data determine: {} (the fewest coefficients whose "
                      "fit converges; --selectModel's held-out rule needs groups: scan with "
                      "scoreWDLstat --groups 64).\n",
                      form_pair_name(simpler->forms));
    std::string error = simpler->uncertainty
                            ? fmt::format(" +- {:.1f} (positions taken as independent)",
                                          simpler->uncertainty->pawn_value_error)
                            : "";
    text += fmt::format("Its fit: NormalizeToPawnValue = {}{}, spread = {}.\n", model.pawn_value(),
                        error, model.spread());
    text += fmt::format("    constexpr double as[] = {};\n", coefficient_list(model.as));
    text += fmt::format("    constexpr double bs[] = {};\n", coefficient_list(model.bs));
    if (simpler->cubic_positions) {
        double needed = *simpler->cubic_positions;
        std::string in_games =
            games && *games > 0
                ? fmt::format(" ({:.0f} games of {:.0f} retained positions each, as in these data)",
                              needed * double(*games) / double(positions),
                              double(positions) / double(*games))
                : " (the count file does not record games: --scanSummary names them)";
        text += fmt::format(
            "Stockfish's cubic needs at least {:.0f} positions{} for a standard error of {:g} in "
            "NormalizeToPawnValue, if games like these follow the fit above (Fisher information "
            "of the cubic there, positions taken as independent). A game's positions are not: "
            "the jackknife over games of the bundled data finds about 23 times the variance "
            "(docs/fitting.md, design effect), so plan on that many times the games.\n",
            needed, in_games, kPlannedPawnValueError);
    }
    return text;
}

nlohmann::ordered_json simpler_fit_json(const std::optional<SimplerFit>& simpler) {
    if (!simpler) return nullptr;
    nlohmann::ordered_json json = model::model_json(simpler->model);
    json["forms"] = form_pair_name(simpler->forms);
    json["heldOutRule"] = simpler->held_out;
    json["NormalizeToPawnValue"] = simpler->model.pawn_value();
    if (simpler->uncertainty)
        json["NormalizeToPawnValueStandardError"] = simpler->uncertainty->pawn_value_error;
    if (simpler->cubic_positions)
        json["cubicNeeds"] = {{"positions", *simpler->cubic_positions},
                              {"NormalizeToPawnValueStandardError", kPlannedPawnValueError},
                              {"assumes",
                               "the simpler fit as the truth; independent positions "
                               "(a lower bound for games)"}};
    return json;
}

std::string fit_report(const FitResult& fit) {
    std::string_view mom_name = mom_type_name(fit.model.mom_type);
    std::string text;
    if (!fit.skipped_moms.empty()) text += skipped_moms_warning(mom_name, fit.skipped_moms) + "\n";
    for (const auto& failed : fit.failed_local_fits) {
        text += fmt::format(
            "Warning: The local fit at {} {} did not converge, so it is left out of the "
            "polynomial fits: {}.\n",
            mom_name, failed.mom, failed.reason);
    }
    if (fit.minimization) {
        text += fmt::format("Initial objective function:  {}\n",
                            util::python_float_repr(*fit.initial_objective));
        text += fmt::format("Final objective function:    {}\n",
                            util::python_float_repr(*fit.final_objective));
        text += fit.minimization->converged
                    ? "Optimization terminated successfully.\n"
                    : fmt::format("Warning: Optimization did not converge: {}\n",
                                  fit.minimization->message);
    }
    auto verdict = fit_verdict(fit);
    if (!verdict.determined) {
        text += fmt::format(
            "The fit is not determined: {}. The constants below are where the search stopped, "
            "not a model: do not use them.\n",
            verdict.reason);
    }
    text += model_summary(fit.model, verdict.determined);
    if (fit.uncertainty) {
        text += fmt::format(
            "Standard errors: NormalizeToPawnValue {:.2f}, spread {:.2f} (positions taken as "
            "independent; the positions of a game are not, so the true errors are larger).\n",
            fit.uncertainty->pawn_value_error, fit.uncertainty->spread_error);
    }
    return text;
}

nlohmann::ordered_json fit_json(const FitResult& fit) {
    nlohmann::ordered_json json = model::model_json(fit.model);
    if (fit.initial_objective) json["initialObjective"] = *fit.initial_objective;
    if (fit.final_objective) json["finalObjective"] = *fit.final_objective;
    auto verdict = fit_verdict(fit);
    json["determined"] = verdict.determined;
    if (!verdict.determined) json["notDetermined"] = verdict.reason;
    if (fit.minimization) {
        json["converged"] = fit.minimization->converged;
        if (!fit.minimization->converged) json["solverMessage"] = fit.minimization->message;
    }
    if (fit.uncertainty) {
        json["uncertainty"] = {
            {"NormalizeToPawnValueStandardError", fit.uncertainty->pawn_value_error},
            {"spreadStandardError", fit.uncertainty->spread_error},
            {"covariance", fit.uncertainty->covariance},
            {"assumes", "independent positions (lower bounds for game data)"}};
    }
    json["skippedMoms"] = fit.skipped_moms;
    auto& failed = json["failedLocalFits"] = nlohmann::ordered_json::array();
    for (const auto& f : fit.failed_local_fits)
        failed.push_back({{"mom", f.mom}, {"reason", f.reason}});
    auto& local = json["localFits"] = nlohmann::ordered_json::array();
    for (const auto& l : fit.local_fits) local.push_back({{"mom", l.mom}, {"a", l.a}, {"b", l.b}});
    return json;
}

}  // namespace wdl::fit
