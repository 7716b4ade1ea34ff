#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "wdl/model/wdl_math.hpp"
#include "wdl/util/enum_names.hpp"

// A complete WDL model (docs/model.md): the cubics a(mom) and b(mom) of wdl_math, with what
// their argument is, and the constants Stockfish derives from them.
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
    Poly3 as{}, bs{};
    MomType mom_type = MomType::Material;
    int mom_target = 58;
    // Stockfish clamps the mom before dividing by the target (material to 17..78); a fitted
    // model has no clamp.
    std::optional<double> mom_min, mom_max;
    // Internal eval units per unit of the eval the coefficients are in: 1 for every model since
    // 2022-11; PawnValueEg / 100 for older ones, which took x = 100 * v / PawnValueEg.
    double eval_scale = 1;

    double clamped(double mom) const;
    // a and b in internal units at a mom value (clamped as the model clamps it).
    double a(double mom) const { return eval_scale * poly3(as, clamped(mom) / mom_target); }
    double b(double mom) const { return eval_scale * poly3(bs, clamped(mom) / mom_target); }

    double win(double eval, double mom) const { return win_rate(eval, a(mom), b(mom)); }
    double draw(double eval, double mom) const { return draw_rate(eval, a(mom), b(mom)); }
    double loss(double eval, double mom) const { return loss_rate(eval, a(mom), b(mom)); }
    double score(double eval, double mom) const { return expected_score(eval, a(mom), b(mom)); }

    // NormalizeToPawnValue: the internal eval at which the engine wins half of its games at
    // the target mom, displayed as +1.00.
    long pawn_value() const { return round_half_up(eval_scale * coefficient_sum(as)); }
    long spread() const { return round_half_up(eval_scale * coefficient_sum(bs)); }
    double normalized_spread() const { return coefficient_sum(bs) / coefficient_sum(as); }
    // The draw rate of an equal position (eval 0) at the target mom: 1 - 2 win(0).
    double draw_rate_at_zero() const;
};

// "((c3 * x / 58 + c2) * x / 58 + c1) * x / 58 + c0" with the coefficients as %5.3f, as the
// original prints p_a and p_b.
std::string polynomial_text(const Poly3& coefficients, int mom_target);

}  // namespace wdl::model
