#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "wdl/stats/distributions.hpp"
#include "wdl/stats/random.hpp"

using namespace wdl::stats;

TEST_CASE("a seed gives one sequence, another seed another", "[stats][random]") {
    Random a(42), b(42), c(43);
    for (int i = 0; i < 100; ++i) {
        auto x = a.bits();
        CHECK(x == b.bits());
        CHECK(x != c.bits());
    }
    CHECK(stream_seed(7, 0) != stream_seed(7, 1));
    CHECK(stream_seed(7, 0) != stream_seed(8, 0));
}

// std::mt19937_64's 10000th output for the default seed is fixed by the C++ standard
// ([rand.predef]): our draws rest on that sequence.
TEST_CASE("the engine is the standard's mt19937_64", "[stats][random]") {
    Random random(5489);
    std::uint64_t x = 0;
    for (int i = 0; i < 10000; ++i) x = random.bits();
    CHECK(x == 9981545732273789042ull);
}

TEST_CASE("draws have the moments of their distributions", "[stats][random]") {
    Random random(1);
    constexpr int n = 200000;
    std::vector<double> uniforms, normals, exponentials, ts;
    for (int i = 0; i < n; ++i) {
        uniforms.push_back(random.uniform());
        normals.push_back(random.normal());
        exponentials.push_back(random.exponential());
        ts.push_back(random.student_t(5));
    }
    // Tolerances are 5 standard errors of the sample moments.
    CHECK(mean(uniforms) == Approx(0.5).margin(5 * std::sqrt(1.0 / 12 / n)));
    CHECK(mean(normals) == Approx(0).margin(5 * std::sqrt(1.0 / n)));
    CHECK(sample_variance(normals) == Approx(1).margin(5 * std::sqrt(2.0 / n)));
    CHECK(mean(exponentials) == Approx(1).margin(5 * std::sqrt(1.0 / n)));
    CHECK(sample_variance(ts) == Approx(5.0 / 3).margin(0.05));
    CHECK(sample_quantile(normals, 0.975) == Approx(1.959964).margin(0.03));
}

TEST_CASE("integers below n are uniform", "[stats][random]") {
    Random random(3);
    std::vector<int> seen(7);
    for (int i = 0; i < 70000; ++i) ++seen[random.below(7)];
    for (int count : seen) CHECK(std::abs(count - 10000) < 5 * 93);  // sd = sqrt(n p (1-p))
}
