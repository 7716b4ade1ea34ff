#pragma once
// The keys a fit retains and the form of its curves, as scoreWDL takes them, for every program
// that fits as scoreWDL does: --moveMin, --moveMax, --materialMin, --materialMax, --evalMax,
// --momType, --momTarget, --aForm and --bForm.

#include <CLI/CLI.hpp>
#include <limits>

#include "choice_option.hpp"
#include "curve_form_option.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/model/curve.hpp"

inline void add_fit_filter_options(CLI::App& app, wdl::fit::GridFilter& filter, int& mom_target,
                                   wdl::model::CurveForm& a_form, wdl::model::CurveForm& b_form) {
    using wdl::model::MomType;
    app.add_option("--moveMin", filter.move_min, "Drop keys with a lower move number")
        ->capture_default_str();
    app.add_option("--moveMax", filter.move_max, "Drop keys with a higher move number")
        ->capture_default_str();
    app.add_option("--materialMin", filter.material_min, "Drop keys with less material")
        ->capture_default_str();
    app.add_option("--materialMax", filter.material_max, "Drop keys with more material")
        ->capture_default_str();
    app.add_option("--evalMax", filter.eval_max_cp,
                   "Keep |internal eval| <= round(evalMax * pawn value / 100) (evalMax in cp)")
        ->capture_default_str();
    add_choice_option(app, "--momType", filter.mom_type,
                      choices(wdl::model::kMomTypeNames, {MomType::Material, MomType::Move}),
                      "The mom the model depends on");
    app.add_option("--momTarget", mom_target,
                   "The polynomials are in t = mom / momTarget; NormalizeToPawnValue = p_a(1)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()))
        ->capture_default_str();
    add_curve_form_option(app, "--aForm", a_form,
                          "The form of p_a: polyN, a polynomial of degree N (1 to 5; Stockfish's "
                          "is poly3), or rationalN, a polynomial of degree N over 1 + d t");
    add_curve_form_option(app, "--bForm", b_form, "The form of p_b, as --aForm");
}
