#include <catch2/catch.hpp>
#include <cmath>

#include "sampled_data.hpp"
#include "sanitizer.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/stats/distributions.hpp"

using namespace wdl::fit;
using wdl::fit::test::estimate_named;
using wdl::fit::test::kGameGroups;
using wdl::fit::test::sample_and_fit;
using wdl::fit::test::sampler;

// 200 data sets of games from a known model (20 under a sanitizer): the jackknife's 95 %
// interval must cover the true NormalizeToPawnValue in 90 % to 99 % of them (binomial sd 1.5 %,
// so 3.3 and 2.7 sd away from 95 %), while the interval that takes positions as independent
// covers clearly less.
TEST_CASE("jackknife intervals cover the truth on games, independent intervals do not",
          "[fit][resampling][slow]") {
    constexpr int kDraws = wdl::testing::repetitions(200, 20);
    int jackknife_covers = 0, fisher_covers = 0, fits = 0;
    ResampleOptions options;
    options.threads = 2;
    double truth = 0;
    for (int draw = 0; draw < kDraws; ++draw) {
        auto settings = sampler(60000, true, 64, 1000 + std::uint64_t(draw));
        settings.positions_per_game = 60;
        truth = wdl::model::curve_at_target({}, settings.model.as);
        auto sampled = sample_and_fit(settings);
        if (!sampled.fit.uncertainty) continue;
        ++fits;
        auto resampling =
            resample_fit(*sampled.data, sampled.fit, sampled.options, kGameGroups, options);
        const auto& pawn = estimate_named(resampling, "NormalizeToPawnValue");
        jackknife_covers += pawn.low <= truth && truth <= pawn.high;
        double z = wdl::stats::normal_quantile(0.975);
        fisher_covers += std::abs(pawn.estimate - truth) <= z * *pawn.fisher_standard_error;
    }
    INFO("jackknife covers " << jackknife_covers << ", Fisher " << fisher_covers << " of " << fits);
    CHECK(fits == kDraws);
    CHECK(jackknife_covers >= wdl::testing::fewest_covers_of_95(fits));
    CHECK(jackknife_covers <= wdl::testing::most_covers_of_95(fits));
    CHECK(fisher_covers <= 0.80 * fits);
}
