#include "wdl/fit/fit_report.hpp"

#include <fmt/format.h>

#include "wdl/model/model_file.hpp"
#include "wdl/util/python_format.hpp"

namespace wdl::fit {

std::string skipped_moms_warning(std::string_view mom_name, const std::vector<int>& moms) {
    return fmt::format("Warning: Too little data, so skipping {} values {}", mom_name,
                       util::numpy_int_array(moms));
}

std::string model_summary(const model::WdlModel& model) {
    std::string text;
    text += fmt::format("const int NormalizeToPawnValue = {};\n", model.pawn_value());
    text += fmt::format("Corresponding spread = {};\n", model.spread());
    text += fmt::format("Corresponding normalized spread = {};\n",
                        util::python_float_repr(model.normalized_spread()));
    text += fmt::format("Draw rate at 0.0 eval at {} {} = {};\n", mom_type_name(model.mom_type),
                        model.mom_target, util::python_float_repr(model.draw_rate_at_zero()));
    text += "Parameters in internal value units: \n";
    text += fmt::format("p_a = {}\n", model::polynomial_text(model.as, model.mom_target));
    text += fmt::format("p_b = {}\n", model::polynomial_text(model.bs, model.mom_target));
    const auto& as = model.as;
    const auto& bs = model.bs;
    text += fmt::format("    constexpr double as[] = {{{:.8f}, {:.8f}, {:.8f}, {:.8f}}};\n", as[0],
                        as[1], as[2], as[3]);
    text += fmt::format("    constexpr double bs[] = {{{:.8f}, {:.8f}, {:.8f}, {:.8f}}};\n", bs[0],
                        bs[1], bs[2], bs[3]);
    return text;
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
    text += model_summary(fit.model);
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
