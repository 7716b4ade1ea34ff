#include <catch2/catch.hpp>
#include <cmath>

#include "sampled_data.hpp"
#include "wdl/fit/fit_report.hpp"

using namespace wdl::fit;
using wdl::fit::test::sample_and_fit;
using wdl::fit::test::sampler;
using wdl::model::CurveForm;
using wdl::model::CurveKind;

namespace {

constexpr CurveForm kQuadratic{CurveKind::Polynomial, 2};
constexpr CurveForm kRational{CurveKind::Rational, 1};

// Positions drawn from a model whose a is quadratic and whose b is rational.
wdl::synth::SamplerSettings quadratic_and_rational(std::uint64_t positions, std::uint64_t seed) {
    auto settings = sampler(positions, false, 0, seed);
    settings.model.a_form = kQuadratic;
    settings.model.as = {-60, 100, 345};
    settings.model.b_form = kRational;
    settings.model.bs = {30, 40, 0.2};
    return settings;
}

}  // namespace

TEST_CASE("a fit of another form recovers a model of that form", "[fit][forms]") {
    auto settings = quadratic_and_rational(2000000, 11);
    const auto& truth = settings.model;
    auto sampled = sample_and_fit(settings, Method::OptimizeProbability, kQuadratic, kRational);
    const auto& fitted = sampled.fit.model;
    REQUIRE(sampled.fit.minimization->converged);
    CHECK(fitted.a_form == kQuadratic);
    CHECK(fitted.b_form == kRational);
    REQUIRE(fitted.as.size() == 3);
    REQUIRE(fitted.bs.size() == 3);
    REQUIRE(sampled.fit.uncertainty);
    CHECK(sampled.fit.uncertainty->covariance.size() == 6);
    for (int material = 17; material <= 78; material += 7) {
        CAPTURE(material, fitted.a(material), truth.a(material), fitted.b(material),
                truth.b(material));
        CHECK(std::abs(fitted.a(material) - truth.a(material)) < 0.02 * truth.a(material));
        CHECK(std::abs(fitted.b(material) - truth.b(material)) < 0.05 * truth.b(material));
    }
    // Within a few standard errors at the target, where the errors are stated.
    CHECK(std::abs(fitted.a_at_target() - truth.a_at_target()) <
          4 * sampled.fit.uncertainty->pawn_value_error);
    CHECK(std::abs(fitted.b_at_target() - truth.b_at_target()) <
          4 * sampled.fit.uncertainty->spread_error);
}

TEST_CASE("the printed model of another form says what Stockfish's code must change",
          "[fit][forms]") {
    auto sampled = sample_and_fit(quadratic_and_rational(300000, 12), Method::OptimizeProbability,
                                  kQuadratic, kRational);
    auto text = model_summary(sampled.fit.model);
    CHECK_THAT(text, Catch::Contains("constexpr double as[] = {") && Catch::Contains("p_b = (") &&
                         Catch::Contains(") / (1 + "));
    CHECK_THAT(text, Catch::Contains("double a = ((as[0] * m + as[1]) * m + as[2]);"));
    CHECK_THAT(text, Catch::Contains("double b = (bs[0] * m + bs[1]) / (1 + bs[2] * m);"));
    auto cubic = sample_and_fit(quadratic_and_rational(300000, 12));
    CHECK_THAT(model_summary(cubic.fit.model), !Catch::Contains("must become"));
}
