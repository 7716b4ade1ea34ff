#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/model/curve.hpp"
#include "wdl/model/display_rule.hpp"
#include "wdl/model/wdl_math.hpp"
#include "wdl/util/enum_names.hpp"

// A complete WDL model (docs/model.md): the curves a(mom) and b(mom) (Stockfish's cubics, or
// another form), with what their argument is, and the constants Stockfish derives from them.
namespace wdl::model {

// What the polynomials' argument counts: the material on the board (P + 3N + 3B + 5R + 9Q of
// both sides), the full-move number, or the ply (half-moves played; Stockfish 12 to 16).
enum class MomType { Material, Move, Ply };
inline constexpr std::array<util::EnumName<MomType>, 3> kMomTypeNames = {{
    {MomType::Material, "material"},
    {MomType::Move, "move"},
    {MomType::Ply, "ply"},
}};

std::string_view mom_type_name(MomType type);
std::optional<MomType> mom_type_from_name(std::string_view name);

// int(x + 0.5): how the original rounds NormalizeToPawnValue and the spread (not Python's
// round(), which rounds half to even).
inline long round_half_up(double value) { return long(value + 0.5); }

// PawnValueEg of every release whose model took x = 100 * v / PawnValueEg (SF 12 to 15; 206 only
// at the first model's commit): what such a model means where its PawnValueEg is not known.
inline constexpr int kReleasedPawnValueEg = 208;

struct WdlModel {
    // Stockfish's as[] and bs[] for its cubics; other forms' coefficients as curve.hpp orders them.
    Coefficients as = Coefficients(4, 0.0), bs = Coefficients(4, 0.0);
    CurveForm a_form, b_form;
    MomType mom_type = MomType::Material;
    int mom_target = 58;
    // Stockfish clamps the mom before dividing by the target (material to 17..78); a fitted
    // model has no clamp.
    std::optional<double> mom_min, mom_max;
    // Internal eval units per unit of the eval the coefficients are in: 1 for every model since
    // 2022-11; PawnValueEg / 100 for older ones, which took x = 100 * v / PawnValueEg.
    double eval_scale = 1;
    // How the engine displayed evals and clamped the curve's input (display_rule.hpp).
    DisplayRule display;

    double clamped(double mom) const;
    // The eval the curve reads: an internal eval clamped as the engine clamped it.
    double curve_input(double eval) const;
    // a and b in internal units at a mom value (clamped as the model clamps it).
    double a(double mom) const {
        return eval_scale * curve_value(a_form, as, clamped(mom) / mom_target);
    }
    double b(double mom) const {
        return eval_scale * curve_value(b_form, bs, clamped(mom) / mom_target);
    }
    // p_a(1) and p_b(1) in the coefficients' units: for the cubics, the sums of as[] and bs[].
    double a_at_target() const { return curve_at_target(a_form, as); }
    double b_at_target() const { return curve_at_target(b_form, bs); }
    // Stockfish's form: both curves cubic polynomials, which its code evaluates.
    bool has_stockfish_form() const { return a_form.is_cubic() && b_form.is_cubic(); }
    int parameter_count() const { return a_form.parameter_count() + b_form.parameter_count(); }

    double win(double eval, double mom) const {
        return win_rate(curve_input(eval), a(mom), b(mom));
    }
    double draw(double eval, double mom) const {
        return draw_rate(curve_input(eval), a(mom), b(mom));
    }
    double loss(double eval, double mom) const {
        return loss_rate(curve_input(eval), a(mom), b(mom));
    }
    double score(double eval, double mom) const {
        return expected_score(curve_input(eval), a(mom), b(mom));
    }

    // The internal eval the engine displays as +1.00 at a mom: the rule's constant or a(mom).
    double display_scale(double mom) const {
        return display.pawn_divisor ? *display.pawn_divisor : a(mom);
    }
    // The displayed centipawns of an internal eval, unrounded: 100 x / display_scale(mom).
    double to_cp(double eval, double mom) const { return 100 * eval / display_scale(mom); }
    // The internal eval of displayed centipawns: the one whose exact display is cp (where the
    // engine truncates, the end nearest 0 of the evals it prints as cp).
    double from_cp(double cp, double mom) const { return cp * display_scale(mom) / 100; }
    // The centipawns the engine prints for its integer eval v: 100 v / N truncated, or
    // 100 v / a(mom) rounded half away from zero.
    long printed_cp(long v, double mom) const;

    // NormalizeToPawnValue: the internal eval at which the engine wins half of its games at
    // the target mom, displayed as +1.00.
    long pawn_value() const { return round_half_up(eval_scale * a_at_target()); }
    long spread() const { return round_half_up(eval_scale * b_at_target()); }
    double normalized_spread() const { return b_at_target() / a_at_target(); }
    // The draw rate of an equal position (eval 0) at the target mom: 1 - 2 win(0).
    double draw_rate_at_zero() const;
};

// The constants a model is summarized by, in the coefficients' units and named as every report
// and JSON names them: NormalizeToPawnValue (a at the target mom), the spread (b there) and the
// draw rate at eval 0.
struct HeadlineConstant {
    std::string_view name;
    double (*value)(const WdlModel&);
};
inline constexpr std::array<HeadlineConstant, 3> kHeadlineConstants = {{
    {"NormalizeToPawnValue", [](const WdlModel& m) { return m.a_at_target(); }},
    {"spread", [](const WdlModel& m) { return m.b_at_target(); }},
    {"drawRateAtZero", [](const WdlModel& m) { return m.draw_rate_at_zero(); }},
}};

// A model of x = 100 v / PawnValueEg (SF 12 to 15): its eval scale, and the display by the same
// constant.
void use_pawn_value_eg(WdlModel& model, int pawn_value_eg);

// The covariance of a model's coefficients, as then bs (parameter_count() squared).
using Covariance = std::vector<std::vector<double>>;

// "((c3 * x / 58 + c2) * x / 58 + c1) * x / 58 + c0" with the coefficients as %5.3f, as the
// original prints p_a and p_b; other forms in the same manner ("(...) / (1 + d * x / 58)").
std::string curve_text(CurveForm form, const Coefficients& coefficients, int mom_target);

}  // namespace wdl::model
