#include "wdl/model/curve.hpp"

#include <fmt/format.h>

#include <charconv>

#include "wdl/util/error.hpp"

namespace wdl::model {
namespace {

constexpr std::string_view kPolynomialPrefix = "poly", kRationalPrefix = "rational";

// The numerator (or the polynomial) by Horner's rule, highest power first.
double numerator(CurveForm form, const Coefficients& c, double t) {
    double value = 0.0;
    for (int k = 0; k <= form.degree; ++k) value = value * t + c[std::size_t(k)];
    return value;
}

double denominator(CurveForm form, const Coefficients& c, double t) {
    return form.kind == CurveKind::Rational ? 1.0 + c[std::size_t(form.degree + 1)] * t : 1.0;
}

// t^(degree - k) for coefficient k, the numerator's derivative in it.
double power_of(CurveForm form, int k, double t) {
    double power = 1.0;
    for (int i = k; i < form.degree; ++i) power *= t;
    return power;
}

}  // namespace

std::string curve_form_name(CurveForm form) {
    return fmt::format("{}{}",
                       form.kind == CurveKind::Polynomial ? kPolynomialPrefix : kRationalPrefix,
                       form.degree);
}

std::optional<CurveForm> curve_form_from_name(std::string_view name) {
    for (auto [prefix, kind] : {std::pair{kPolynomialPrefix, CurveKind::Polynomial},
                                std::pair{kRationalPrefix, CurveKind::Rational}}) {
        if (!name.starts_with(prefix)) continue;
        std::string_view digits = name.substr(prefix.size());
        int degree = 0;
        auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), degree);
        if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
        if (degree < kMinCurveDegree || degree > kMaxCurveDegree) return std::nullopt;
        return CurveForm{kind, degree};
    }
    return std::nullopt;
}

void check_coefficients(CurveForm form, const Coefficients& c, std::string_view name) {
    if (int(c.size()) != form.parameter_count()) {
        throw Error(fmt::format("{} has {} coefficients, but a {} curve has {}", name, c.size(),
                                curve_form_name(form), form.parameter_count()));
    }
}

double curve_value(CurveForm form, const Coefficients& c, double t) {
    return numerator(form, c, t) / denominator(form, c, t);
}

double curve_at_target(CurveForm form, const Coefficients& c) {
    double sum = 0.0;
    for (int k = 0; k <= form.degree; ++k) sum += c[std::size_t(k)];
    return sum / denominator(form, c, 1.0);
}

void curve_gradient(CurveForm form, const Coefficients& c, double t, std::span<double> gradient) {
    double inverse = 1.0 / denominator(form, c, t);
    for (int k = 0; k <= form.degree; ++k)
        gradient[std::size_t(k)] = power_of(form, k, t) * inverse;
    if (form.kind == CurveKind::Rational)
        gradient[std::size_t(form.degree + 1)] = -t * numerator(form, c, t) * inverse * inverse;
}

void curve_hessian(CurveForm form, const Coefficients& c, double t, std::span<double> hessian) {
    const std::size_t n = std::size_t(form.parameter_count());
    std::fill(hessian.begin(), hessian.end(), 0.0);
    if (form.kind == CurveKind::Polynomial) return;
    // Only the rows and columns of d are non-zero: N / D is linear in the numerator's terms.
    double inverse = 1.0 / denominator(form, c, t);
    std::size_t d = n - 1;
    for (int k = 0; k <= form.degree; ++k) {
        double mixed = -t * power_of(form, k, t) * inverse * inverse;
        hessian[std::size_t(k) * n + d] = mixed;
        hessian[d * n + std::size_t(k)] = mixed;
    }
    hessian[d * n + d] = 2.0 * t * t * numerator(form, c, t) * inverse * inverse * inverse;
}

bool curve_defined_at(CurveForm form, const Coefficients& c, double t) {
    return denominator(form, c, t) > 0.0;
}

}  // namespace wdl::model
