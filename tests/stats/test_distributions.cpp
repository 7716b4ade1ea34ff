#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "wdl/stats/distributions.hpp"

using namespace wdl::stats;

// Published table values (e.g. any statistics textbook's t table).
TEST_CASE("normal and t quantiles match the tables", "[stats]") {
    CHECK(normal_quantile(0.975) == Approx(1.959964).epsilon(1e-6));
    CHECK(normal_quantile(0.5) == Approx(0).margin(1e-12));
    CHECK(normal_quantile(0.05) == Approx(-1.644854).epsilon(1e-6));
    CHECK(student_t_quantile(0.975, 1) == Approx(12.7062).epsilon(1e-5));
    CHECK(student_t_quantile(0.975, 5) == Approx(2.5706).epsilon(1e-4));
    CHECK(student_t_quantile(0.975, 30) == Approx(2.0423).epsilon(1e-4));
    CHECK(student_t_quantile(0.025, 63) == Approx(-1.9983).epsilon(1e-4));
    CHECK(student_t_quantile(0.995, 10) == Approx(3.1693).epsilon(1e-4));
}

TEST_CASE("the t distribution function is symmetric and tends to the normal", "[stats]") {
    CHECK(student_t_cdf(0, 7) == Approx(0.5));
    CHECK(student_t_cdf(-1.3, 4) == Approx(1 - student_t_cdf(1.3, 4)));
    CHECK(student_t_quantile(0.975, 1e7) == Approx(1.959964).epsilon(1e-5));
}

TEST_CASE("F's upper tail by its closed forms and a published table", "[stats]") {
    // F(2, d) has P(F > f) = (1 + 2 f / d)^(-d / 2); F(1, d) is the square of t with d.
    for (double f : {0.3, 1.0, 2.5, 7.0})
        for (double d : {3.0, 20.0, 63.0}) {
            INFO(f << " " << d);
            CHECK(f_upper_tail(f, 2, d) == Approx(std::pow(1 + 2 * f / d, -d / 2)).epsilon(1e-10));
            CHECK(f_upper_tail(f, 1, d) ==
                  Approx(2 * (1 - student_t_cdf(std::sqrt(f), d))).epsilon(1e-10));
        }
    // The 5 % points of F(5, 20) and F(10, 60): 2.7109 and 1.9926 (tables of F).
    CHECK(f_upper_tail(2.7109, 5, 20) == Approx(0.05).epsilon(1e-3));
    CHECK(f_upper_tail(1.9926, 10, 60) == Approx(0.05).epsilon(1e-3));
    CHECK(f_upper_tail(0, 3, 10) == 1);
}

TEST_CASE("sample summaries", "[stats]") {
    std::vector<double> values{4, 1, 3, 2, 5};
    CHECK(mean(values) == 3);
    CHECK(sample_variance(values) == Approx(2.5));
    CHECK(sample_quantile(values, 0.5) == 3);
    CHECK(sample_quantile(values, 0.25) == 2);
    CHECK(sample_quantile(values, 0.1) == Approx(1.4));
    CHECK(sample_quantile(values, 1.0) == 5);
}
