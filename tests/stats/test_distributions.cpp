#include <catch2/catch.hpp>
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

TEST_CASE("sample summaries", "[stats]") {
    std::vector<double> values{4, 1, 3, 2, 5};
    CHECK(mean(values) == 3);
    CHECK(sample_variance(values) == Approx(2.5));
    CHECK(sample_quantile(values, 0.5) == 3);
    CHECK(sample_quantile(values, 0.25) == 2);
    CHECK(sample_quantile(values, 0.1) == Approx(1.4));
    CHECK(sample_quantile(values, 1.0) == 5);
}
