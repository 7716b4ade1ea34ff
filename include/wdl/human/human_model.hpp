#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/util/enum_names.hpp"

// The rating-aware model of human games (docs/human-games.md). For the side to move at its
// displayed eval x (pawns, lichess's display, from its view), with material m (P+3N+3B+5R+9Q),
// its rating R and its opponent's O, level l = ((R + O) / 2 - 1500) / 400 and difference
// d = (R - O) / 400:
//   win  = logistic((x - a) / b + s),   loss = logistic((-x - a) / b - s),   s = tau(l) + g d,
//   a = A(t) exp(alpha(l)),  b = B(t) exp(beta(l)),  t = m / 58,
// A and B cubics in t (Stockfish's form of the curves), alpha and beta polynomials in l without
// a constant term, g the rating difference's logit shift (the engines' strength term of
// scale/strength_model.hpp, for people), tau a polynomial in l: the side to move's own shift
// (a person about to move tends to lose some of the eval: its tempo is worth less than an
// engine's). An eval at lichess's display ceiling of +-10 pawns (anything from there to a
// mate) enters as +-(10 + kappa). Below it, a form with the eval map reads |x| through a
// piecewise-linear map that moves each of the knots kEvalMapKnots by its parameter (0 and 10
// stay): people's results rise faster than one logistic over the first pawns and slower over
// the next (docs/human-games.md, "Calibration"). A form with the zero term multiplies a by
// exp(zeta) where the eval is shown as 0.00: the engine's score of a draw it sees (repetition,
// fortress, dead material), drawn far more often than an eval near 0. A form with the slip adds
// eta |x| to the side to move's eval (x clamped to +-10): a person gives away more on the move
// the larger the eval, so tau alone over-rates the side to move in lopsided positions and
// under-rates it in level ones. A form says which of alpha, beta, tau, kappa, the map, eta,
// zeta and g it has.
namespace wdl::human {

enum class HumanForm {
    Flat,                       // a(t), b(t): ratings ignored (Stockfish's form refitted on people)
    Difference,                 // + g
    Level,                      // + alpha and beta linear in l
    LevelDifference,            // + alpha and beta linear in l, + g
    QuadraticDifference,        // + alpha and beta quadratic in l, + g
    TempoDifference,            // level+difference + a constant shift tau0 of the side to move
    LevelTempoDifference,       // level+difference + tau linear in l
    TempoCeilingDifference,     // level+difference+tempo + kappa, the ceiling's extra pawns
    TempoCeilingMapDifference,  // level+difference+tempo+ceiling + the eval map's displacements
    TempoCeilingMapZeroDifference,      // level+difference+tempo+ceiling+map + zeta at a 0.00
    TempoCeilingMapZeroSlipDifference,  // level+difference+tempo+ceiling+map+zero + eta |x|
};
inline constexpr std::array<util::EnumName<HumanForm>, 11> kHumanFormNames = {{
    {HumanForm::Flat, "flat"},
    {HumanForm::Difference, "difference"},
    {HumanForm::Level, "level"},
    {HumanForm::LevelDifference, "level+difference"},
    {HumanForm::QuadraticDifference, "level2+difference"},
    {HumanForm::TempoDifference, "level+difference+tempo"},
    {HumanForm::LevelTempoDifference, "level+difference+tempo1"},
    {HumanForm::TempoCeilingDifference, "level+difference+tempo+ceiling"},
    {HumanForm::TempoCeilingMapDifference, "level+difference+tempo+ceiling+map"},
    {HumanForm::TempoCeilingMapZeroDifference, "level+difference+tempo+ceiling+map+zero"},
    {HumanForm::TempoCeilingMapZeroSlipDifference, "level+difference+tempo+ceiling+map+zero+slip"},
}};
std::string_view human_form_name(HumanForm form);
std::optional<HumanForm> human_form_from_name(std::string_view name);

// The material of the curves' argument t = m / 58, as Stockfish's models take it.
inline constexpr double kMaterialTarget = 58;
// The level and difference in units of 400 rating points around 1500 (Elo's scale; lichess's
// starting rating).
inline constexpr double kLevelCentre = 1500;
inline constexpr double kRatingScale = 400;
// Evals enter clamped to lichess's ceiling of +-1000 cp (a mate counts as the ceiling), the
// range of the counted keys; mates themselves are left out of the fit.
inline constexpr double kCpCeiling = 1000;
inline constexpr int kCurveTerms = 4;  // A and B are cubics
// The eval map's knots in pawns, between 0 and lichess's ceiling of 10.
inline constexpr std::array<double, 5> kEvalMapKnots = {1, 2, 3, 5, 7};
// The hat function of knot `knot` (1 there, falling linearly to 0 at the neighbouring knots,
// 0 and 10 at the ends) at `pawns` >= 0: how much of the knot's displacement an eval gets.
double eval_map_weight(std::size_t knot, double pawns);
// An eval shown as 0.00: the count file's key 0, which holds the displayed centipawns -2 to 2
// (bin_eval rounds to 5; on lichess's rapid games 92 % of them are exactly 0).
inline constexpr double kZeroEvalBelow = 2.5;
inline bool is_zero_eval(double cp) { return cp > -kZeroEvalBelow && cp < kZeroEvalBelow; }
// kappa, the map and eta.
inline constexpr std::size_t kMostEvalTerms = 1 + kEvalMapKnots.size() + 1;
using EvalTerms = std::array<double, kMostEvalTerms>;

// The number of terms of alpha (and of beta), of tau, and whether kappa, the map, eta, zeta
// and g are there.
int level_terms(HumanForm form);
int tempo_terms(HumanForm form);
bool has_ceiling(HumanForm form);
bool has_eval_map(HumanForm form);
bool has_slip(HumanForm form);
bool has_zero_eval(HumanForm form);
bool has_difference(HumanForm form);
// Where tau0 is in the parameters (after beta), kappa (after tau), the map (after kappa), eta
// (after the map) and zeta (after eta).
std::size_t tempo_index(HumanForm form);
std::size_t ceiling_index(HumanForm form);
std::size_t eval_map_index(HumanForm form);
std::size_t slip_index(HumanForm form);
std::size_t zero_eval_index(HumanForm form);
// The parameters that move the eval itself: kappa, the map's and eta, from ceiling_index on.
int eval_terms(HumanForm form);
// 8 + 2 level_terms + tempo_terms + eval_terms + has_zero_eval + has_difference: A0..A3,
// B0..B3, alpha1.., beta1.., tau0.., kappa, map1.., eta, zeta, g.
int parameter_count(HumanForm form);
// "A0" ... "A3", "B0" ... "B3", "alpha1" ..., "beta1" ..., "tau0" ..., "kappa", "map1",
// "map2", "map3", "map5", "map7" (the knot in pawns), "eta", "zeta", "g": the parameters'
// order.
std::vector<std::string> parameter_names(HumanForm form);

// One of the curves a and b: the cubic in t of the parameters from `cubic`, and the factor exp
// of the polynomial in l without constant term of the `terms` parameters from `exponent`.
struct CurveFactors {
    double cubic = 0, level = 1;
    double value() const { return cubic * level; }
};
CurveFactors curve_factors(const std::vector<double>& parameters, std::size_t cubic,
                           std::size_t exponent, int terms, double t, double l);

// Where a position is: what the model reads besides the eval.
struct Situation {
    double material = 58;
    double rating = 1500, opponent_rating = 1500;
};

struct HumanModel {
    HumanForm form = HumanForm::Flat;
    std::vector<double> parameters;  // parameter_count(form), in parameter_names' order

    // The curves at a situation, in pawns, at an eval not shown as 0.00 (a there is
    // a(at) * zero_eval_factor(cp)); b is not guaranteed positive away from the data.
    double a(const Situation& at) const;
    double b(const Situation& at) const;
    // exp(zeta) at an eval shown as 0.00 in a form with the zero term, else 1.
    double zero_eval_factor(double cp) const;
    // The logit shift tau(l) + g d of the side to move and the rating difference.
    double shift(const Situation& at) const;
    // The eval in pawns that the curves read at displayed centipawns `cp`: clamped to +-10,
    // +-(10 + kappa) at the ceiling, through the eval map below it, plus eta times the clamped
    // eval's size (the side to move's slip: not odd in cp).
    double pawns(double cp) const;
    // d pawns(cp) / d (kappa, map1, ..., eta), in its first eval_terms(form) entries (the rest 0):
    // pawns(cp) is the clamped eval plus these times their parameters.
    EvalTerms pawns_gradient(double cp) const;
    // pawns(cp) from its gradient already computed (the fit needs both).
    double pawns(double cp, const EvalTerms& gradient) const;
    // Win, draw, loss of the side to move at displayed centipawns `cp` (clamped to +-1000).
    std::array<double, 3> wdl(double cp, const Situation& at) const;
};

// A model with A = a0, B = b0 and everything else 0: where fits start.
HumanModel starting_model(HumanForm form, double a0 = 1, double b0 = 1);

}  // namespace wdl::human
