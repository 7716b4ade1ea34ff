#include <catch2/catch.hpp>
#include <cmath>

#include "sampled_data.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::fit;
using wdl::fit::test::sample_and_fit;

using wdl::fit::test::estimate_named;
using wdl::fit::test::kGameGroups;
using wdl::fit::test::sampler;

TEST_CASE("weighting the groups adds and removes their counts", "[fit][resampling]") {
    auto sampled = sample_and_fit(sampler(50000, true, 8, 3));
    const GroupedData& data = *sampled.data;
    REQUIRE(data.group_count() == 8);
    std::vector<double> ones(8, 1.0);
    auto same = data.weighted(ones);
    REQUIRE(same.size() == data.total().size());
    for (std::size_t m = 0; m < same.size(); ++m) CHECK(same[m].total == data.total()[m].total);

    // Leaving out group 3 is the data of a grid that never saw it.
    CountGrid without(GridFilter{}, wdl::synth::SamplerSettings{}.normalization);
    for (std::size_t g = 0; g < data.group_count(); ++g) {
        if (g == 3) continue;
        for (const KeyCount& entry : data.counts(g))
            without.add(wdl::counts::unpack_key(entry.key), entry.count);
    }
    auto expected = collect_mom_data(without);
    std::vector<double> weights(8, 1.0);
    weights[3] = 0;
    auto left_out = data.weighted(weights);
    double positions = 0;
    for (std::size_t m = 0; m < expected.size(); ++m) {
        INFO("mom " << expected[m].mom);
        REQUIRE(left_out[m].cells.size() == expected[m].cells.size());
        for (std::size_t c = 0; c < expected[m].cells.size(); ++c) {
            CHECK(left_out[m].cells[c].eval == expected[m].cells[c].eval);
            CHECK(left_out[m].cells[c].wins == expected[m].cells[c].wins);
            CHECK(left_out[m].cells[c].draws == expected[m].cells[c].draws);
            CHECK(left_out[m].cells[c].losses == expected[m].cells[c].losses);
        }
        positions += left_out[m].total;
    }
    double all = 0;
    for (const auto& mom : data.total()) all += mom.total;
    CHECK(positions == all - data.positions(3));

    // Twice group 3 is all the data plus group 3 again.
    weights[3] = 2;
    double doubled = 0;
    for (const auto& mom : data.weighted(weights)) doubled += mom.total;
    CHECK(doubled == all + data.positions(3));
}

// On independent positions the Fisher information is the right variance: the jackknife must
// find it. Its relative standard error with 256 groups is 1 / sqrt(2 * 255) = 4.4 %, so 15 %
// is 3.4 of them.
TEST_CASE("the jackknife agrees with the Fisher errors on independent positions",
          "[fit][resampling]") {
    auto sampled = sample_and_fit(sampler(300000, false, 256, 11));
    REQUIRE(sampled.fit.uncertainty);
    ResampleOptions options;
    options.threads = 2;
    auto resampling = resample_fit(*sampled.data, sampled.fit, sampled.options,
                                   {wdl::counts::GroupBy::Game, 256}, options);
    CHECK(resampling.replicates == 256);
    CHECK(resampling.failures.empty());
    for (const char* name : {"NormalizeToPawnValue", "spread", "drawRateAtZero"}) {
        const auto& estimate = estimate_named(resampling, name);
        INFO(name << ": jackknife " << estimate.standard_error << ", Fisher "
                  << *estimate.fisher_standard_error);
        CHECK(estimate.standard_error == Approx(*estimate.fisher_standard_error).epsilon(0.15));
        CHECK(*estimate.design_effect == Approx(1).epsilon(0.35));
    }
    const auto& pawn = estimate_named(resampling, "NormalizeToPawnValue");
    double t = wdl::stats::student_t_quantile(0.975, 255);
    CHECK(pawn.high - pawn.estimate == Approx(t * pawn.standard_error));
    CHECK(pawn.estimate - pawn.low == Approx(t * pawn.standard_error));
}

TEST_CASE("the bootstrap over groups agrees with the jackknife", "[fit][resampling]") {
    auto sampled = sample_and_fit(sampler(200000, true, 64, 5));
    ResampleOptions jackknife, bootstrap;
    jackknife.threads = bootstrap.threads = 2;
    bootstrap.method = ResampleMethod::Bootstrap;
    bootstrap.bootstrap_replicates = 200;
    auto by_jackknife =
        resample_fit(*sampled.data, sampled.fit, sampled.options, kGameGroups, jackknife);
    auto by_bootstrap =
        resample_fit(*sampled.data, sampled.fit, sampled.options, kGameGroups, bootstrap);
    CHECK(by_bootstrap.replicates == 200);
    const auto& a = estimate_named(by_jackknife, "NormalizeToPawnValue");
    const auto& b = estimate_named(by_bootstrap, "NormalizeToPawnValue");
    // Both estimate one standard error, each within about 10 % (63 groups, 200 draws).
    CHECK(b.standard_error == Approx(a.standard_error).epsilon(0.3));
    CHECK(b.low < a.estimate);
    CHECK(b.high > a.estimate);
    // The same seed draws the same replicates.
    auto again = resample_fit(*sampled.data, sampled.fit, sampled.options, kGameGroups, bootstrap);
    CHECK(estimate_named(again, "NormalizeToPawnValue").standard_error == b.standard_error);
}

TEST_CASE("resampling needs two groups", "[fit][resampling]") {
    auto sampled = sample_and_fit(sampler(50000, true, 1, 3));
    CHECK_THROWS_AS(resample_fit(*sampled.data, sampled.fit, sampled.options,
                                 {wdl::counts::GroupBy::Game, 1}, ResampleOptions{}),
                    wdl::Error);
}

// Replicates at +-d about their mean: with all G present the jackknife's variance is
// (G - 1) / G * G d^2. Missing ones (failed refits) do not make fewer groups: the m present
// stand for the spread of all G, where taking them for m groups gave (m - 1) d^2.
TEST_CASE("a jackknife with failed replicates keeps the variance of its groups",
          "[fit][resampling]") {
    const double d = 0.5;
    std::vector<double> all, kept;
    for (int g = 0; g < 64; ++g) all.push_back(g % 2 ? 10 + d : 10 - d);
    for (int g = 0; g < 48; ++g) kept.push_back(g % 2 ? 10 + d : 10 - d);
    auto whole = jackknife_estimate("x", 10, all, 64, 0.95);
    auto missing = jackknife_estimate("x", 10, kept, 64, 0.95);
    CHECK(whole.standard_error == Approx(std::sqrt(63.0) * d));
    CHECK(missing.standard_error == Approx(whole.standard_error));
    // The t quantile has G - 1 degrees of freedom either way.
    CHECK(missing.high - missing.low == Approx(whole.high - whole.low));
    auto t = wdl::stats::student_t_quantile(0.975, 63);
    CHECK(missing.high == Approx(10 + t * std::sqrt(63.0) * d));
}

TEST_CASE("no interval when more than a tenth of the replicates failed", "[fit][resampling]") {
    CHECK_FALSE(failed_replicates_refusal(0, 64));
    CHECK_FALSE(failed_replicates_refusal(6, 64));
    auto refused = failed_replicates_refusal(7, 64);
    REQUIRE(refused);
    CHECK_THAT(*refused, Catch::Contains("7 of 64 replicates did not converge"));
    auto too_few = failed_replicates_refusal(63, 64);
    REQUIRE(too_few);
    CHECK_THAT(*too_few, Catch::Contains("1 of 64 replicates converged"));
    CHECK_FALSE(failed_replicates_refusal(1, 10));
    CHECK(failed_replicates_refusal(2, 10));
}
