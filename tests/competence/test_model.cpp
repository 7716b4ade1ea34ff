#include <catch2/catch.hpp>
#include <cmath>

#include "wdl/competence/model.hpp"
#include "wdl/competence/posterior.hpp"

using namespace wdl::competence;
using wdl::tablebase::Outcome;

TEST_CASE("R_0 chooses uniformly", "[competence][model]") {
    PreferenceFunction s(1.0, 32, 4);
    std::vector<double> exponents = {s.exponent(Outcome::Win, 3), s.exponent(Outcome::Draw, 0),
                                     s.exponent(Outcome::Loss, 2)};
    for (double p : choice_probabilities(exponents, 0.0)) CHECK(p == Approx(1.0 / 3));
    CompetenceGrid grid(0, 10, 1);
    std::vector<double> log_likelihood;
    add_decision(exponents, 1, grid, log_likelihood);
    CHECK(log_likelihood[0] == Approx(std::log(1.0 / 3)));
}

TEST_CASE("S(win, n1) = S(draw) = S(loss, n2)", "[competence][model]") {
    for (double kappa : {0.5, 1.0, 2.0}) {
        PreferenceFunction s(kappa, 32, 4);
        double draw = s.exponent(Outcome::Draw, 0);
        CHECK(s.exponent(Outcome::Win, 32) == Approx(draw));
        CHECK(s.exponent(Outcome::Loss, 4) == Approx(draw));
        // Wins are preferred to draws, draws to losses, shorter wins and longer losses.
        CHECK(s.exponent(Outcome::Win, 31) > draw);
        CHECK(s.exponent(Outcome::Loss, 3) < draw);
        CHECK(s.exponent(Outcome::Win, 2) > s.exponent(Outcome::Win, 3));
        CHECK(s.exponent(Outcome::Loss, 3) > s.exponent(Outcome::Loss, 2));
    }
}

TEST_CASE("choosing the shorter win raises the likelihood with c", "[competence][model]") {
    PreferenceFunction s(1.0, 32, 4);
    std::vector<double> exponents = {s.exponent(Outcome::Win, 5), s.exponent(Outcome::Win, 9),
                                     s.exponent(Outcome::Win, 12)};
    CompetenceGrid grid(0, 50, 0.5);
    std::vector<double> shorter, longer;
    add_decision(exponents, 0, grid, shorter);
    add_decision(exponents, 2, grid, longer);
    for (std::size_t i = 1; i < grid.size(); ++i) {
        CHECK(shorter[i] > shorter[i - 1]);
        CHECK(longer[i] < longer[i - 1]);
    }
    auto summary = summarize(grid, posterior({}, shorter));
    CHECK(summary.piles_up_high);  // one best choice says only "c is large"
}

TEST_CASE("posterior summary of a known distribution", "[competence][posterior]") {
    CompetenceGrid grid(0, 10, 1);
    std::vector<double> log_likelihood(grid.size(), -INFINITY);
    log_likelihood[3] = std::log(0.5);
    log_likelihood[5] = std::log(0.5);
    auto summary = summarize(grid, posterior({}, log_likelihood));
    CHECK(summary.mean == Approx(4.0));
    CHECK(summary.sd == Approx(1.0));
    CHECK(summary.low == 3);
    CHECK(summary.high == 5);
    CHECK_FALSE(summary.piles_up_high);
    // A prior multiplies in.
    std::vector<double> log_prior(grid.size(), 0.0);
    log_prior[5] = std::log(3.0);
    CHECK(summarize(grid, posterior(log_prior, log_likelihood)).mean == Approx(4.5));
}

TEST_CASE("the c grid", "[competence][model]") {
    CompetenceGrid grid(0, 50, 0.1);
    CHECK(grid.size() == 501);
    CHECK(grid.max() == Approx(50));
    CHECK_THROWS(CompetenceGrid(0, 50, 0));
    CHECK_THROWS(CompetenceGrid(5, 1, 1));
}
