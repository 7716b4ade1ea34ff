#include <catch2/catch.hpp>
#include <cmath>

#include "sampled_data.hpp"
#include "wdl/fit/trainer_constants.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::fit;

namespace {

double logistic(double x) { return 1 / (1 + std::exp(-x)); }

// Counts that are exactly the expectation of W/D/L probabilities at evals -600 .. 600, spread
// over two moms (the constants take every mom together).
template <class Probabilities>
std::vector<MomData> exact_counts(Probabilities probabilities) {
    std::vector<MomData> data(2);
    data[0].mom = 30;
    data[1].mom = 60;
    for (int x = -600; x <= 600; x += 10) {
        auto [win, draw, loss] = probabilities(double(x));
        auto& mom = data[std::size_t(x / 10 + 60) % 2];
        mom.cells.push_back({double(x), 1000 * win, 1000 * draw, 1000 * loss});
        mom.wins += 1000 * win;
        mom.total += 1000;
    }
    return data;
}

const TrainerEstimate& named(const TrainerConstants& constants, const std::string& name) {
    for (const auto& estimate : constants.estimates)
        if (estimate.name == name) return estimate;
    throw std::runtime_error("no " + name);
}

}  // namespace

TEST_CASE("trainer constants: the win-rate model's offset and scaling come back exactly",
          "[fit][trainer]") {
    auto data = exact_counts([](double x) {
        double win = logistic((x - 270) / 340), loss = logistic((-x - 270) / 340);
        return std::array{win, 1 - win - loss, loss};
    });
    auto fit = fit_trainer_constants(data);
    CHECK(fit.offset == Approx(270).epsilon(1e-6));
    CHECK(fit.scaling == Approx(340).epsilon(1e-6));
}

TEST_CASE("trainer constants: Texel's scale is the least-squares one", "[fit][trainer]") {
    // Expected score exactly 1 / (1 + exp(-x / 400)), with draws of 20 %.
    auto data = exact_counts([](double x) {
        double score = logistic(x / 400);
        double win = std::clamp(score - 0.1, 0.0, 0.8);
        double draw = 2 * (score - win);
        return std::array{win, draw, 1 - win - draw};
    });
    auto fit = fit_trainer_constants(data);
    CHECK(fit.score_scale == Approx(400).epsilon(1e-6));
    auto constants = trainer_constants(data, nullptr);
    CHECK(named(constants, "texelK").estimate == Approx(400 / (400 * std::log(10.0))));
}

TEST_CASE("trainer constants: data without draws or positions is refused", "[fit][trainer]") {
    auto no_draws = exact_counts([](double x) {
        double win = logistic(x / 300);
        return std::array{win, 0.0, 1 - win};
    });
    CHECK_THROWS_AS(fit_trainer_constants(no_draws), wdl::Error);
    CHECK_THROWS_AS(fit_trainer_constants({}), wdl::Error);
}

// Games drawn from a model whose a and b are the same at every material: the jackknife over
// the games' groups covers the true constants; without groups only offset and scaling get
// (Fisher's, narrower) intervals.
TEST_CASE("trainer constants: the jackknife interval covers the true constants", "[fit][trainer]") {
    auto settings = test::sampler(300000, true, 32, 11);
    settings.model.as = {0, 0, 0, 270};
    settings.model.bs = {0, 0, 0, 340};
    auto sampled = test::sample_and_fit(settings, Method::None);
    for (int threads : {1, 2}) {
        auto constants = trainer_constants(sampled.data->total(), sampled.data.get(), threads);
        CHECK(constants.groups == 32);
        const auto& offset = named(constants, "offset");
        const auto& scaling = named(constants, "scaling");
        CHECK(*offset.low < 270);
        CHECK(*offset.high > 270);
        CHECK(*scaling.low < 340);
        CHECK(*scaling.high > 340);
        CHECK(*offset.standard_error < 15);
        CHECK(named(constants, "scoreScale").standard_error.has_value());
    }
    auto plain = trainer_constants(sampled.data->total(), nullptr);
    CHECK(plain.groups == 0);
    CHECK(named(plain, "offset").standard_error.has_value());
    CHECK_FALSE(named(plain, "scoreScale").standard_error.has_value());
    auto grouped = trainer_constants(sampled.data->total(), sampled.data.get());
    // Positions of a game share its result: the groups' interval is the wider one.
    CHECK(*named(grouped, "offset").standard_error > *named(plain, "offset").standard_error);
}
