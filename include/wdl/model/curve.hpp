#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The model's two functions a(t) and b(t) of t = mom / momTarget: Stockfish's cubics, or
// another form whose evidence scoreWDL --selectModel weighs (docs/model.md).
namespace wdl::model {

enum class CurveKind { Polynomial, Rational };

// A polynomial of `degree` (Stockfish's: 3), or a rational function: a polynomial of `degree`
// over 1 + d t, which can level off where a polynomial must keep bending.
struct CurveForm {
    CurveKind kind = CurveKind::Polynomial;
    int degree = 3;

    int parameter_count() const { return degree + 1 + (kind == CurveKind::Rational ? 1 : 0); }
    bool is_cubic() const { return kind == CurveKind::Polynomial && degree == 3; }
    friend bool operator==(const CurveForm&, const CurveForm&) = default;
};

inline constexpr int kMinCurveDegree = 1, kMaxCurveDegree = 5;

// "poly3", "rational2": the names of the options and of the model JSON. Nothing for a name
// that is not a form of degree kMinCurveDegree to kMaxCurveDegree.
std::string curve_form_name(CurveForm form);
std::optional<CurveForm> curve_form_from_name(std::string_view name);

// A curve's coefficients: the polynomial's (a rational function's numerator's) highest power
// first, as Stockfish's as[] and bs[]; a rational function's d last.
using Coefficients = std::vector<double>;

// Throws wdl::Error unless the coefficients fit the form.
void check_coefficients(CurveForm form, const Coefficients& c, std::string_view name);

double curve_value(CurveForm form, const Coefficients& c, double t);

// The value at t = 1, the target mom. A polynomial's is the sum of its coefficients, added
// left to right as Python's sum() adds them, so that what is printed from it matches the
// original digit for digit.
double curve_at_target(CurveForm form, const Coefficients& c);

// The derivatives of the value at t in the coefficients: the gradient (parameter_count()
// entries), and the Hessian (row-major, parameter_count() squared; zero for a polynomial,
// which is linear in its coefficients).
void curve_gradient(CurveForm form, const Coefficients& c, double t, std::span<double> gradient);
void curve_hessian(CurveForm form, const Coefficients& c, double t, std::span<double> hessian);

// True where the value is defined: a rational function's denominator 1 + d t stays positive.
bool curve_defined_at(CurveForm form, const Coefficients& c, double t);

}  // namespace wdl::model
