#pragma once
// The keys a fit retains and the form of its curves, as scoreWDL takes them, for every program
// that fits as scoreWDL does: --moveMin, --moveMax, --materialMin, --materialMax, --evalMax,
// --momType, --momTarget, --aForm and --bForm.

#include <CLI/CLI.hpp>

#include "choice_option.hpp"
#include "curve_form_option.hpp"
#include "number_checks.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/model/curve.hpp"

// The largest move or material number a fit's window or target may name.
inline constexpr int kMaxMom = 1000;

inline void add_fit_filter_options(CLI::App& app, wdl::fit::GridFilter& filter, int& mom_target,
                                   wdl::model::CurveForm& a_form, wdl::model::CurveForm& b_form) {
    using wdl::model::MomType;
    // Full moves start at 1 and the scanner counts none after move 200; material (P + 3N + 3B +
    // 5R + 9Q) is at least 0. The bounds size the fit's grid, so they stay at most 1000.
    auto bound = [&app](const char* name, int& value, const char* help, int lowest) {
        return app.add_option(name, value, help)
            ->check(number_checks::in_range(lowest, kMaxMom))
            ->capture_default_str();
    };
    auto* move_min = bound("--moveMin", filter.move_min, "Drop keys with a lower move number", 1);
    auto* move_max = bound("--moveMax", filter.move_max, "Drop keys with a higher move number", 1);
    auto* material_min =
        bound("--materialMin", filter.material_min, "Drop keys with less material", 0);
    auto* material_max =
        bound("--materialMax", filter.material_max, "Drop keys with more material", 0);
    // The scanner clamps evals to 1000 cp (mates 1001); 10000 leaves room for training data.
    app.add_option("--evalMax", filter.eval_max_cp,
                   "Keep |internal eval| <= round(evalMax * pawn value / 100) (evalMax in cp)")
        ->check(number_checks::in_range(1, 10000))
        ->capture_default_str();
    add_choice_option(app, "--momType", filter.mom_type,
                      choices(wdl::model::kMomTypeNames, {MomType::Material, MomType::Move}),
                      "The mom the model depends on");
    app.add_option("--momTarget", mom_target,
                   "The polynomials are in t = mom / momTarget; NormalizeToPawnValue = p_a(1)")
        ->check(number_checks::in_range(1, kMaxMom))
        ->capture_default_str();
    add_curve_form_option(app, "--aForm", a_form,
                          "The form of p_a: polyN, a polynomial of degree N (1 to 5; Stockfish's "
                          "is poly3), or rationalN, a polynomial of degree N over 1 + d t");
    add_curve_form_option(app, "--bForm", b_form, "The form of p_b, as --aForm");
    // An empty window would fit nothing and end in "No data was found!": say why instead. The
    // app's final callback is this check's (no program that fits sets another).
    app.final_callback([&filter, move_min, move_max, material_min, material_max] {
        auto check = [](const CLI::Option* low, int min, const CLI::Option* high, int max) {
            if (min > max)
                throw CLI::ValidationError(low->get_name(), std::to_string(min) + " is above " +
                                                                high->get_name() + " " +
                                                                std::to_string(max));
        };
        check(move_min, filter.move_min, move_max, filter.move_max);
        check(material_min, filter.material_min, material_max, filter.material_max);
    });
}
