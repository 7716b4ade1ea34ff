#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "wdl/model/curve.hpp"
#include "wdl/model/model_file.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::model;

namespace {

constexpr CurveForm kQuadratic{CurveKind::Polynomial, 2};
constexpr CurveForm kRational{CurveKind::Rational, 2};

// Central differences of the value in coefficient k.
double numeric_slope(CurveForm form, Coefficients c, double t, std::size_t k) {
    double h = 1e-6 * std::max(1.0, std::abs(c[k]));
    Coefficients up = c, down = c;
    up[k] += h;
    down[k] -= h;
    return (curve_value(form, up, t) - curve_value(form, down, t)) / (2 * h);
}

}  // namespace

TEST_CASE("curve forms have names, and only forms of degree 1 to 5 do", "[model][curve]") {
    for (CurveKind kind : {CurveKind::Polynomial, CurveKind::Rational})
        for (int degree = kMinCurveDegree; degree <= kMaxCurveDegree; ++degree)
            CHECK(curve_form_from_name(curve_form_name({kind, degree})) == CurveForm{kind, degree});
    CHECK(curve_form_name({}) == "poly3");
    CHECK(curve_form_name(kRational) == "rational2");
    for (const char* bad : {"poly0", "poly6", "rational", "poly3x", "cubic", "", "poly-1"})
        CHECK_FALSE(curve_form_from_name(bad));
    CHECK(CurveForm{}.parameter_count() == 4);
    CHECK(kRational.parameter_count() == 4);
    CHECK(CurveForm{}.is_cubic());
    CHECK_FALSE(kRational.is_cubic());
}

TEST_CASE("curves take their values as their forms say", "[model][curve]") {
    Coefficients quadratic{2, -3, 5};  // 2 t^2 - 3 t + 5
    CHECK(curve_value(kQuadratic, quadratic, 0.5) == Approx(0.5 - 1.5 + 5));
    Coefficients rational{2, -3, 5, 0.25};  // (2 t^2 - 3 t + 5) / (1 + t / 4)
    CHECK(curve_value(kRational, rational, 2.0) == Approx((8 - 6 + 5) / 1.5));
    CHECK(curve_at_target(kRational, rational) == Approx(4 / 1.25));
    // The cubic's value at the target is the plain sum, as Stockfish's NormalizeToPawnValue.
    Coefficients cubic{-72.32565836, 185.93832038, -144.58862193, 416.44950446};
    CHECK(curve_at_target({}, cubic) ==
          ((-72.32565836 + 185.93832038) - 144.58862193) + 416.44950446);
    CHECK(curve_defined_at(kRational, {1, 1, 1, -0.5}, 1.9));
    CHECK_FALSE(curve_defined_at(kRational, {1, 1, 1, -0.5}, 2.0));
    CHECK_THROWS_AS(check_coefficients(kRational, quadratic, "as"), wdl::Error);
}

TEST_CASE("curve derivatives in the coefficients are exact", "[model][curve]") {
    for (auto [form, c] :
         {std::pair{kQuadratic, Coefficients{2, -3, 5}},
          std::pair{kRational, Coefficients{-40, 90, 300, -0.3}},
          std::pair{CurveForm{CurveKind::Rational, 1}, Coefficients{50, 200, 0.4}},
          std::pair{CurveForm{CurveKind::Polynomial, 5}, Coefficients{1, -2, 3, -4, 5, 360}}}) {
        const std::size_t n = std::size_t(form.parameter_count());
        for (double t : {0.3, 1.0, 1.34}) {
            CAPTURE(curve_form_name(form), t);
            std::vector<double> gradient(n), hessian(n * n);
            curve_gradient(form, c, t, gradient);
            curve_hessian(form, c, t, hessian);
            for (std::size_t k = 0; k < n; ++k) {
                CHECK(gradient[k] ==
                      Approx(numeric_slope(form, c, t, k)).epsilon(1e-7).margin(1e-7));
                // The Hessian's column k: the gradient's slope in coefficient k.
                double h = 1e-6 * std::max(1.0, std::abs(c[k]));
                Coefficients up = c, down = c;
                up[k] += h;
                down[k] -= h;
                std::vector<double> above(n), below(n);
                curve_gradient(form, up, t, above);
                curve_gradient(form, down, t, below);
                for (std::size_t j = 0; j < n; ++j)
                    CHECK(hessian[j * n + k] ==
                          Approx((above[j] - below[j]) / (2 * h)).epsilon(1e-6).margin(1e-9));
            }
        }
    }
}

TEST_CASE("a curve's text is the original's for the cubic and alike for other forms",
          "[model][curve]") {
    CHECK(curve_text({CurveKind::Polynomial, 1}, {2, 300}, 58) == "2.000 * x / 58 + 300.000");
    CHECK(curve_text(kRational, {1, 2, 3, 0.5}, 58) ==
          "((1.000 * x / 58 + 2.000) * x / 58 + 3.000) / (1 + 0.500 * x / 58)");
}

TEST_CASE("models of any form round-trip through their JSON", "[model][curve][file]") {
    WdlModel model;
    model.a_form = kRational;
    model.as = {-40, 90, 300, -0.3};
    model.b_form = {CurveKind::Polynomial, 1};
    model.bs = {10, 60};
    auto json = nlohmann::json(model_json(model));
    CHECK(json["aForm"] == "rational2");
    CHECK(json["bForm"] == "poly1");
    auto back = model_from_json(json, "test");
    CHECK(back.a_form == model.a_form);
    CHECK(back.b_form == model.b_form);
    CHECK(back.as == model.as);
    CHECK(back.bs == model.bs);
    CHECK(back.pawn_value() == model.pawn_value());
    // The cubic writes no forms: its JSON is the original's.
    CHECK_FALSE(nlohmann::json(model_json(WdlModel{})).contains("aForm"));
    // Without a form, the number of coefficients gives the polynomial's degree.
    auto quadratic =
        model_from_json(nlohmann::json{{"as", {1, 2, 3}}, {"bs", {1, 2, 3, 4, 5}}}, "test");
    CHECK(quadratic.a_form == kQuadratic);
    CHECK(quadratic.b_form == CurveForm{CurveKind::Polynomial, 4});
    CHECK_THROWS_WITH(model_from_json(nlohmann::json{{"as", {1}}, {"bs", {1, 2}}}, "one.json"),
                      Catch::Contains("one.json") && Catch::Contains("2 to 6 numbers"));
    CHECK_THROWS_WITH(
        model_from_json(nlohmann::json{{"as", {1, 2}}, {"bs", {1, 2}}, {"aForm", "spline"}},
                        "form.json"),
        Catch::Contains("form.json") && Catch::Contains("aForm"));
    CHECK_THROWS_WITH(
        model_from_json(nlohmann::json{{"as", {1, 2}}, {"bs", {1, 2}}, {"aForm", "rational2"}},
                        "count.json"),
        Catch::Contains("count.json") && Catch::Contains("has 2 coefficients"));
}
