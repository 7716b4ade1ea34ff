#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>

#include "sampled_data.hpp"
#include "wdl/fit/cross_validation.hpp"

using namespace wdl::fit;
using wdl::fit::test::sample_and_fit;

namespace {

// The default normalization with the true model's bs: its model is the truth.
wdl::model::Normalization truth_normalization() {
    auto truth = wdl::synth::stockfish_model();
    return wdl::model::Normalization::from_json(
        fmt::format(R"({{"momType": "material", "momMin": 17, "momMax": 78, "momTarget": 58, )"
                    R"("as": [{}, {}, {}, {}], "bs": [{}, {}, {}, {}]}})",
                    truth.as[0], truth.as[1], truth.as[2], truth.as[3], truth.bs[0], truth.bs[1],
                    truth.bs[2], truth.bs[3]));
}

CrossValidation validate(bool games) {
    wdl::synth::SamplerSettings settings;
    settings.positions = 300000;
    settings.games = games;
    settings.groups = 64;
    settings.seed = 21;
    settings.threads = 2;
    settings.normalization = truth_normalization();
    auto sampled = sample_and_fit(settings);
    return cross_validate(*sampled.data, sampled.fit, sampled.options, settings.normalization,
                          {wdl::counts::GroupBy::Game, 64}, {10, 2});
}

}  // namespace

TEST_CASE("held out, the fitted model predicts as well as the truth and better than the baseline",
          "[fit][validation]") {
    for (bool games : {false, true}) {
        INFO((games ? "games" : "independent positions"));
        auto validation = validate(games);
        REQUIRE(validation.failures.empty());
        CHECK(validation.folds == 10);
        REQUIRE(validation.models.size() == 3);
        const auto& fitted = validation.models[0];
        const auto& truth = validation.models[1];
        const auto& baseline = validation.models[2];
        CHECK(truth.name == "NormalizeData");
        CHECK(baseline.name == "baseline");
        INFO("log-loss fitted " << fitted.log_loss << ", truth " << truth.log_loss << " +- "
                                << truth.log_loss_error << ", baseline " << baseline.log_loss);
        // Within the noise of the estimate of the truth's log-loss.
        CHECK(std::abs(fitted.log_loss - truth.log_loss) < truth.log_loss_error);
        CHECK(std::abs(truth.log_loss_difference) < truth.log_loss_error);
        // The baseline is worse, by many standard errors of the paired difference.
        CHECK(baseline.log_loss_difference > 5 * baseline.log_loss_difference_error);
        CHECK(baseline.brier > fitted.brier);
        CHECK(validation.baseline_scales.size() == 10);
    }
}

TEST_CASE("the fitted model is calibrated on held-out positions", "[fit][validation]") {
    auto validation = validate(false);
    const auto& fitted = validation.models[0];
    double positions = 0;
    for (const auto& bin : fitted.by_predicted_win) {
        positions += bin.positions;
        CHECK(bin.predicted[0] >= std::stod(bin.label) - 1e-9);
        CHECK(bin.predicted[0] <= std::stod(bin.label.substr(4)) + 1e-9);
        // Independent positions: the observed rate is binomial around the predicted one.
        double p = bin.predicted[0];
        INFO("bin " << bin.label << ": predicted " << p << ", observed " << bin.observed[0]);
        CHECK(std::abs(bin.observed[0] - p) < 5 * std::sqrt(p * (1 - p) / bin.positions) + 0.003);
    }
    CHECK(positions == validation.positions);
    double by_material = 0;
    for (const auto& bin : fitted.by_material) by_material += bin.positions;
    CHECK(by_material == validation.positions);
}
