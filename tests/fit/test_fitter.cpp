#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "fit_test_data.hpp"
#include "program_runner.hpp"
#include "stationarity.hpp"
#include "test_data.hpp"
#include "wdl/fit/fit_report.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/objective.hpp"

using namespace wdl::fit;
using namespace wdl::testing;
using wdl::fit::test::stationarity;
using wdl::model::Coefficients;
using wdl::model::WdlModel;

namespace {

const auto kDefaultNormalization =
    wdl::model::Normalization::from_json(wdl::model::kDefaultNormalizeData);

// Largest deviation of the win and draw rates of a fitted model from the true one over
// internal evals [-400, 400] and materials 17..78 (t = material / 58).
double max_rate_error(const Coefficients& as, const Coefficients& bs, const Coefficients& true_as,
                      const Coefficients& true_bs) {
    double error = 0;
    for (int material = 17; material <= 78; ++material) {
        double t = material / 58.0;
        double a = wdl::model::curve_value({}, as, t), b = wdl::model::curve_value({}, bs, t);
        double ta = wdl::model::curve_value({}, true_as, t),
               tb = wdl::model::curve_value({}, true_bs, t);
        for (int x = -400; x <= 400; ++x) {
            error = std::max(
                error, std::abs(wdl::model::win_rate(x, a, b) - wdl::model::win_rate(x, ta, tb)));
            error = std::max(
                error, std::abs(wdl::model::draw_rate(x, a, b) - wdl::model::draw_rate(x, ta, tb)));
        }
    }
    return error;
}

// Options of a fit of Stockfish's cubics.
FitOptions options_of(Method method, wdl::model::MomType mom_type, int mom_target,
                      std::int64_t win_min, int pawn_value) {
    FitOptions options;
    options.method = method;
    options.mom_type = mom_type;
    options.mom_target = mom_target;
    options.win_min = win_min;
    options.pawn_value = pawn_value;
    return options;
}

FitResult fit(const std::vector<MomData>& moms, Method method, int mom_target = 58) {
    return fit_model(moms, options_of(method, wdl::model::MomType::Material, mom_target, 10,
                                      kDefaultNormalization.pawn_value()));
}

// A cubic model with these coefficients, of `mom_target`.
WdlModel cubic_model(const Coefficients& as, const Coefficients& bs, int mom_target) {
    WdlModel model;
    model.as = as;
    model.bs = bs;
    model.mom_target = mom_target;
    return model;
}

}  // namespace

TEST_CASE("the synthetic model is recovered accurately", "[fit][synthetic]") {
    auto moms = load_reference_moms("synth_1M.json", {}, kDefaultNormalization);
    auto truth =
        nlohmann::json::parse(read_text_file(test_data_path("reference/fit/synth_1M.truth.json")));
    Coefficients true_as = truth["as"].get<Coefficients>(),
                 true_bs = truth["bs"].get<Coefficients>();
    for (auto [method, reference] :
         {std::pair{Method::FitDensity, "synth1M_fitDensity.txt"},
          std::pair{Method::OptimizeProbability, "synth1M_optimizeProbability.txt"},
          std::pair{Method::OptimizeScore, "synth1M_optimizeScore.txt"}}) {
        std::string original =
            read_text_file(test_data_path("reference/fit/" + std::string(reference)));
        double original_error =
            max_rate_error(printed_coefficients(original, "as"),
                           printed_coefficients(original, "bs"), true_as, true_bs);
        auto result = fit(moms, method);
        double error = max_rate_error(result.model.as, result.model.bs, true_as, true_bs);
        CAPTURE(method_name(method), error, original_error);
        CHECK(error <= original_error + 0.002);
        if (method == Method::OptimizeProbability) CHECK(error <= 0.005);
    }
}

// On the small dev corpus the objective is flat along some directions and the original's
// Powell search stopped early: our optimum is better and its pawn value differs by more
// than 1. Starting our optimizer from the original's result must reach the same optimum.
TEST_CASE("the original's dev results are not optima but ours are", "[fit][dev]") {
    struct Case {
        const char* reference;
        Objective objective;
        wdl::model::Normalization normalization;
        GridFilter filter;
        int mom_target;
    };
    GridFilter by_move;
    by_move.mom_type = wdl::model::MomType::Move;
    by_move.move_min = 8;
    for (const auto& c : {
             Case{"dev_optimizeProbability.txt",
                  Objective::Probability,
                  kDefaultNormalization,
                  {},
                  58},
             Case{"dev_optimizeScore.txt", Objective::Score, kDefaultNormalization, {}, 58},
             Case{"dev_move_static_optimizeProbability.txt", Objective::Probability,
                  wdl::model::Normalization::fixed(328), by_move, 32},
         }) {
        CAPTURE(c.reference);
        std::string original =
            read_text_file(test_data_path("reference/fit/" + std::string(c.reference)));
        auto moms = load_reference_moms("dev_counts.json", c.filter, c.normalization);
        WdlModel theirs_model = cubic_model(printed_coefficients(original, "as"),
                                            printed_coefficients(original, "bs"), c.mom_target);
        double theirs = number_after(original, "Final objective function:    ");
        // Our objective at their coefficients is their objective (up to the printed rounding).
        CHECK(model_objective(c.objective, moms, theirs_model) == Approx(theirs).margin(1e-8));

        Method method = c.objective == Objective::Probability ? Method::OptimizeProbability
                                                              : Method::OptimizeScore;
        auto ours = fit_model(moms, options_of(method, c.filter.mom_type, c.mom_target, 10,
                                               c.normalization.pawn_value()));
        REQUIRE(ours.minimization->converged);
        auto from_theirs = optimize_globally(c.objective, moms, theirs_model);
        REQUIRE(from_theirs.converged);
        double improved = model_objective(c.objective, moms, theirs_model);
        CHECK(improved < theirs - 1e-6);
        CHECK(improved == Approx(*ours.final_objective).margin(1e-9));
        // The objective is so flat that equal optima may round p_a(1) either way.
        CHECK(std::abs(theirs_model.a_at_target() - ours.model.a_at_target()) < 1.0);
    }
}

// The optimum's valley on the dev data is very ill-conditioned (Hessian eigenvalues from
// about 1e-12 to 1e-6): a search that stops on small progress ends far from the optimum.
TEST_CASE("the global fits end at a stationary point of the objective", "[fit][dev][optimum]") {
    auto moms = load_reference_moms("dev_counts.json", {}, kDefaultNormalization);
    for (Method method : {Method::OptimizeProbability, Method::OptimizeScore}) {
        auto result = fit(moms, method);
        Objective objective = *method_objective(method);
        auto check = stationarity(objective, moms, 58, result.model.as, result.model.bs);
        INFO(fmt::format(
            "{}: objective {:.17g} (ours {:.17g}), Newton decrement {:.3g}, "
            "gradient {:.3g}, sum(as) {:.6f}",
            method_name(method), check.objective, *result.final_objective, check.newton_decrement,
            check.gradient.norm(), wdl::model::curve_at_target({}, result.model.as)));
        CHECK(result.minimization->converged);
        CHECK(check.objective == Approx(*result.final_objective).epsilon(1e-14));
        REQUIRE(check.hessian_positive_definite);
        CHECK(check.newton_decrement <= 1e-12 * check.objective);
        // Plain BFGS from the previous (premature) end point reaches 0.3208194038023637.
        if (method == Method::OptimizeScore) CHECK(*result.final_objective <= 0.3208195);
    }
}

// With data at two moms only, the cubics are not determined: there is no unique optimum.
TEST_CASE("an undetermined global fit is reported as not converged", "[fit][optimum]") {
    auto moms = load_reference_moms("dev_counts.json", {}, kDefaultNormalization);
    std::vector<MomData> two_moms{moms[20], moms[40]};
    for (Objective objective : {Objective::Probability, Objective::Score}) {
        WdlModel start = cubic_model({0, 0, 0, 350}, {0, 0, 0, 100}, 58);
        auto result = optimize_globally(objective, two_moms, start);
        CHECK_FALSE(result.converged);
        CHECK_THAT(result.message, Catch::Contains("do not determine all parameters"));
    }
}

TEST_CASE("moms with too few wins are skipped but still count globally", "[fit][winMin]") {
    auto moms = load_reference_moms("dev_counts.json", {}, kDefaultNormalization);
    auto result = fit_model(
        moms, options_of(Method::OptimizeProbability, wdl::model::MomType::Material, 58, 500, 385));
    REQUIRE_FALSE(result.skipped_moms.empty());
    CHECK(result.local_fits.size() + result.skipped_moms.size() == moms.size());
    for (int mom : result.skipped_moms) {
        auto it = std::find_if(moms.begin(), moms.end(), [&](auto& m) { return m.mom == mom; });
        CHECK(it->wins < 500);
    }
    // The initial objective covers every mom: recompute it from the stage-2 cubics.
    auto density = fit_model(
        moms, options_of(Method::FitDensity, wdl::model::MomType::Material, 58, 500, 385));
    CHECK_FALSE(density.initial_objective);
    CHECK(result.final_objective < result.initial_objective);
    CHECK_THROWS_AS(fit_model(moms, options_of(Method::FitDensity, wdl::model::MomType::Material,
                                               58, 1000000, 385)),
                    std::runtime_error);
}

TEST_CASE("the objectives' derivatives are exact", "[fit][objective]") {
    auto moms = load_reference_moms("dev_counts.json", {}, kDefaultNormalization);
    const auto& mom = moms[30];
    for (Objective objective : {Objective::Probability, Objective::Score}) {
        double a = 300, b = 80, h = 1e-4;
        auto at = loss_sum(objective, mom.cells, a, b);
        double d_a = (loss_sum(objective, mom.cells, a + h, b).value -
                      loss_sum(objective, mom.cells, a - h, b).value) /
                     (2 * h);
        double d_b = (loss_sum(objective, mom.cells, a, b + h).value -
                      loss_sum(objective, mom.cells, a, b - h).value) /
                     (2 * h);
        CHECK(at.d_a == Approx(d_a).epsilon(1e-6));
        CHECK(at.d_b == Approx(d_b).epsilon(1e-6));
        auto a_up = loss_sum(objective, mom.cells, a + h, b);
        auto a_down = loss_sum(objective, mom.cells, a - h, b);
        auto b_up = loss_sum(objective, mom.cells, a, b + h);
        auto b_down = loss_sum(objective, mom.cells, a, b - h);
        CHECK(at.d_aa == Approx((a_up.d_a - a_down.d_a) / (2 * h)).epsilon(1e-6));
        CHECK(at.d_ab == Approx((b_up.d_a - b_down.d_a) / (2 * h)).epsilon(1e-6));
        CHECK(at.d_ab == Approx((a_up.d_b - a_down.d_b) / (2 * h)).epsilon(1e-6));
        CHECK(at.d_bb == Approx((b_up.d_b - b_down.d_b) / (2 * h)).epsilon(1e-6));
    }
}

TEST_CASE("cubic fits reproduce exact cubics", "[fit][cubic]") {
    Coefficients truth{-84.2, 212.1, -162.2, 420.4};
    std::vector<double> ts, ys;
    for (int m = 17; m <= 78; m += 3) {
        ts.push_back(m / 58.0);
        ys.push_back(wdl::model::curve_value({}, truth, m / 58.0));
    }
    auto c = fit_polynomial(ts, ys, 3);
    REQUIRE(c);
    for (int k = 0; k < 4; ++k) CHECK((*c)[k] == Approx(truth[k]).epsilon(1e-9));
}

// The least-squares solution is where the residuals are orthogonal to every power of t (the
// normal equations), to rounding.
TEST_CASE("cubic fits solve the least-squares problem exactly", "[fit][cubic]") {
    std::vector<double> ts, ys;
    for (int m = 17; m <= 78; ++m) {
        ts.push_back(m / 58.0);
        ys.push_back(300 + 2 * m + 90 * std::sin(m * 0.7) + (m % 3 ? 25 : -40));
    }
    auto c = *fit_polynomial(ts, ys, 3);
    for (int power = 0; power <= 3; ++power) {
        double orthogonality = 0, scale = 0;
        for (std::size_t i = 0; i < ts.size(); ++i) {
            double residual = ys[i] - wdl::model::curve_value({}, c, ts[i]);
            orthogonality += residual * std::pow(ts[i], power);
            scale += std::abs(ys[i] * std::pow(ts[i], power));
        }
        CAPTURE(power, orthogonality, scale);
        CHECK(std::abs(orthogonality) <= 1e-13 * scale);
    }
}

TEST_CASE("cubic fits that the points do not determine fail", "[fit][cubic]") {
    std::vector<double> three_ts{0.5, 0.5, 0.8, 1.0, 1.0}, ys{300, 310, 320, 330, 340};
    CHECK_FALSE(fit_polynomial(three_ts, ys, 3));
    std::vector<double> ts{0.4, 0.6, 0.8, 1.0, 1.2}, not_finite{300, NAN, 320, 330, 340};
    CHECK_FALSE(fit_polynomial(ts, not_finite, 3));
}

// An eval that is not a number stands for data no solver can fit.
TEST_CASE("a failed local fit is reported by its mom and left out", "[fit][local]") {
    auto moms = load_reference_moms("dev_counts.json", {}, kDefaultNormalization);
    const int poisoned = moms[30].mom;
    moms[30].cells[0].eval = NAN;
    for (Method method : {Method::FitDensity, Method::OptimizeScore}) {
        auto result = fit(moms, method);
        CAPTURE(method_name(method));
        REQUIRE(result.failed_local_fits.size() == 1);
        CHECK(result.failed_local_fits[0].mom == poisoned);
        CHECK_FALSE(result.failed_local_fits[0].reason.empty());
        CHECK(std::none_of(result.local_fits.begin(), result.local_fits.end(),
                           [&](const LocalFit& local) { return local.mom == poisoned; }));
        for (double c : result.model.as) CHECK(std::isfinite(c));
        // The global stage sees the poisoned cell too and says that it failed.
        if (result.minimization) CHECK_FALSE(result.minimization->converged);
    }
}

// Wins only above and losses only below an eval: the likelihood grows without bound as the
// spread shrinks to 0, so the per-mom refinement has no optimum to converge to.
TEST_CASE("a local refinement without an optimum is reported", "[fit][local]") {
    MomData separable;
    separable.mom = 40;
    for (int eval = -300; eval <= 300; eval += 20) {
        Cell cell{double(eval), eval > 0 ? 5.0 : 0.0, 0.0, eval < 0 ? 5.0 : 0.0};
        if (cell.total() == 0) continue;
        separable.cells.push_back(cell);
        separable.wins += cell.wins;
        separable.total += cell.total();
    }
    auto refined = refine_locally(Objective::Probability, separable, {40, 300, 50});
    CAPTURE(refined.fit.a, refined.fit.b);
    CHECK_FALSE(refined.minimization.converged);
    CHECK_THAT(refined.minimization.message, Catch::Contains("spread to 0"));
}

// Outcomes that the eval does not order at all: the likelihood is highest for a flat curve,
// which (a, b) reach only by running off together; the search stops far out with a tiny
// gradient and a curvature that, small as it is, is positive. The errors say it is no fit.
TEST_CASE("a local refinement that runs off to a flat curve is not determined", "[fit][local]") {
    MomData flat;
    flat.mom = 75;
    for (int eval = -300; eval <= 300; eval += 20) {
        Cell cell{double(eval), 3.0, 4.0, 3.0};
        flat.cells.push_back(cell);
        flat.wins += cell.wins;
        flat.total += cell.total();
    }
    auto refined = refine_locally(Objective::Probability, flat, {75, 300, 50});
    CAPTURE(refined.fit.a, refined.fit.b);
    CHECK_FALSE(refined.minimization.converged);
    CHECK_THAT(refined.minimization.message, Catch::Contains("not determined by the data"));
}

TEST_CASE("standard errors of a likelihood fit cover the true model and shrink as 1/sqrt(N)",
          "[fit][uncertainty]") {
    // synth_1M draws each position independently from a known model: the setting in which
    // the errors from the Fisher information are exact in the limit.
    auto moms = load_reference_moms("synth_1M.json", {}, kDefaultNormalization);
    auto truth =
        nlohmann::json::parse(read_text_file(test_data_path("reference/fit/synth_1M.truth.json")));
    Coefficients true_as = truth["as"].get<Coefficients>(),
                 true_bs = truth["bs"].get<Coefficients>();
    auto result = fit(moms, Method::OptimizeProbability);
    REQUIRE(result.uncertainty);
    const FitUncertainty& uncertainty = *result.uncertainty;
    double pawn_error = uncertainty.pawn_value_error, spread_error = uncertainty.spread_error;
    CAPTURE(pawn_error, spread_error);
    CHECK(pawn_error > 0.1);
    CHECK(pawn_error < 10);
    CHECK(std::abs(wdl::model::curve_at_target({}, result.model.as) -
                   wdl::model::curve_at_target({}, true_as)) < 4 * pawn_error);
    CHECK(std::abs(wdl::model::curve_at_target({}, result.model.bs) -
                   wdl::model::curve_at_target({}, true_bs)) < 4 * spread_error);
    for (int i = 0; i < 8; ++i) {
        CHECK(uncertainty.covariance[i][i] > 0);
        for (int j = 0; j < i; ++j)
            CHECK(uncertainty.covariance[i][j] == Approx(uncertainty.covariance[j][i]));
    }

    // Four times the same data: the same optimum, half the errors.
    auto quadrupled = moms;
    for (auto& mom : quadrupled) {
        mom.wins *= 4;
        mom.total *= 4;
        for (auto& cell : mom.cells) {
            cell.wins *= 4;
            cell.draws *= 4;
            cell.losses *= 4;
        }
    }
    auto smaller = probability_fit_uncertainty(quadrupled, result.model);
    REQUIRE(smaller);
    CHECK(smaller->pawn_value_error == Approx(pawn_error / 2).epsilon(1e-9));
    CHECK(smaller->spread_error == Approx(spread_error / 2).epsilon(1e-9));

    // Only a likelihood has a Fisher information.
    CHECK_FALSE(fit(moms, Method::OptimizeScore).uncertainty);
    CHECK_FALSE(fit(moms, Method::FitDensity).uncertainty);
}
