#include <catch2/catch.hpp>
#include <cmath>

#include "wdl/human/comparison.hpp"
#include "wdl/human/human_fit.hpp"
#include "wdl/human/synthetic_games.hpp"
#include "wdl/model/published_models.hpp"

using namespace wdl::human;

namespace {

HumanData rating_aware_games(std::uint64_t games) {
    SyntheticHumanSettings settings;
    settings.model = starting_model(HumanForm::LevelDifference, 1.0, 1.8);
    settings.model.parameters[1] = 0.8;    // A1
    settings.model.parameters[8] = -0.2;   // alpha1
    settings.model.parameters[9] = -0.45;  // beta1
    settings.model.parameters[10] = 0.6;   // g
    settings.games = games;
    settings.seed = 21;
    return human_data_by_speed(synthetic_human_counts(settings)).at(0);
}

}  // namespace

TEST_CASE("Default bands are labelled and cover every rating", "[human][comparison]") {
    const auto bands = default_rating_bands();
    REQUIRE(bands.size() == 5);
    CHECK(bands.front().label() == "<1200");
    CHECK(bands[1].label() == "1200-1500");
    CHECK(bands.back().label() == "2100+");
    for (std::size_t b = 1; b < bands.size(); ++b) CHECK(bands[b].low == bands[b - 1].high);
}

TEST_CASE("On held-out games of a rating-aware truth, the fit beats the one-curve baselines",
          "[human][comparison]") {
    const HumanData data = rating_aware_games(3000);
    const HumanFit fit = fit_human_model(data, HumanForm::LevelDifference);
    REQUIRE(fit.converged);
    const auto& stockfish = wdl::model::find_published_model("sf")->model;
    const auto one = compare_held_out(data, fit.model, 8, stockfish, default_rating_bands(), 1);
    const auto two = compare_held_out(data, fit.model, 8, stockfish, default_rating_bands(), 2);
    CHECK(one.failures.empty());
    REQUIRE(one.bands.size() == 6);
    CHECK(one.bands.back().band.label() == "all");
    int judged = 0;
    for (std::size_t b = 0; b < one.bands.size(); ++b) {
        const auto& band = one.bands[b];
        INFO(band.band.label() << ": " << band.verdict);
        CHECK(band.scores[0].log_loss == two.bands[b].scores[0].log_loss);
        if (!band.verdict.empty()) continue;
        ++judged;
        for (std::size_t p = 1; p < std::size_t(kPredictors); ++p) {
            INFO(predictor_name(Predictor(p)));
            CHECK(band.scores[p].versus_fitted > 2 * band.scores[p].versus_fitted_error);
            CHECK(band.scores[p].score_loss > band.scores[0].score_loss);
        }
        // The fitted model's expected score is calibrated: each well-filled bin within 3.5
        // standard errors (10 bins per band).
        for (const auto& bin : band.reliability[0]) {
            if (bin.positions < 500) continue;
            INFO(bin.low << ": predicted " << bin.predicted << ", observed " << bin.observed
                         << " +- " << bin.observed_error);
            CHECK(std::abs(bin.predicted - bin.observed) <= 3.5 * bin.observed_error + 1e-3);
        }
    }
    CHECK(judged >= 4);
}
