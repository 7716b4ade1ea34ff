#include <catch2/catch.hpp>
#include <cmath>

#include "wdl/compare/data_scores.hpp"
#include "wdl/counts/position_key.hpp"

using namespace wdl;
using Catch::Detail::Approx;

namespace {

// A model whose a and b are the same at every material.
model::NamedModel flat_model(const std::string& name, double a, double b) {
    model::NamedModel named;
    named.name = name;
    named.model.as = {0, 0, 0, a};
    named.model.bs = {0, 0, 0, b};
    return named;
}

void add(counts::MergedCounts& counts, counts::Outcome result, std::uint64_t count, int group) {
    counts.counts.add(counts::pack_key({result, 10, 40, 0}), group, count);
}

// -log of a flat model's probability of each outcome at eval 0.
double loss_at_zero(double a, double b, counts::Outcome outcome) {
    double win = 1 / (1 + std::exp(a / b));
    return -std::log(outcome == counts::Outcome::Draw ? 1 - 2 * win : win);
}

}  // namespace

TEST_CASE("models are scored on counts with errors of independent positions by hand",
          "[compare][scores]") {
    counts::MergedCounts counts;
    add(counts, counts::Outcome::Win, 3, 0);
    add(counts, counts::Outcome::Loss, 1, 0);
    add(counts, counts::Outcome::Draw, 2, 0);
    auto scores = compare::score_models({flat_model("A", 100, 100), flat_model("B", 200, 100)},
                                        counts, model::Normalization::fixed(100), {});
    REQUIRE(scores.models.size() == 2);
    CHECK(scores.positions == 6);
    CHECK_FALSE(scores.grouping);
    auto decided = loss_at_zero(100, 100, counts::Outcome::Win);
    auto drawn = loss_at_zero(100, 100, counts::Outcome::Draw);
    double mean = (4 * decided + 2 * drawn) / 6;
    double variance = (4 * std::pow(decided - mean, 2) + 2 * std::pow(drawn - mean, 2)) / 6;
    CHECK(scores.models[0].log_loss == Approx(mean));
    CHECK(scores.models[0].log_loss_error == Approx(std::sqrt(variance / 6)));
    // B minus A, position by position.
    double d_decided = loss_at_zero(200, 100, counts::Outcome::Win) - decided;
    double d_drawn = loss_at_zero(200, 100, counts::Outcome::Draw) - drawn;
    double d_mean = (4 * d_decided + 2 * d_drawn) / 6;
    CHECK(scores.models[1].log_loss_difference == Approx(d_mean));
    double d_variance =
        (4 * std::pow(d_decided - d_mean, 2) + 2 * std::pow(d_drawn - d_mean, 2)) / 6;
    CHECK(scores.models[1].log_loss_difference_error == Approx(std::sqrt(d_variance / 6)));
    CHECK(scores.models[0].log_loss_difference == 0);
}

TEST_CASE("grouped counts give errors with the groups as units", "[compare][scores]") {
    counts::MergedCounts counts;
    counts.grouping = counts::Grouping{counts::GroupBy::Game, 2};
    counts.counts = counts::PositionCounts(counts.grouping);
    add(counts, counts::Outcome::Win, 2, 0);
    add(counts, counts::Outcome::Draw, 2, 1);
    auto scores = compare::score_models({flat_model("A", 100, 100)}, counts,
                                        model::Normalization::fixed(100), {});
    CHECK(scores.groups == 2);
    double win = loss_at_zero(100, 100, counts::Outcome::Win);
    double draw = loss_at_zero(100, 100, counts::Outcome::Draw);
    double mean = (win + draw) / 2;
    // Two groups of 2: residuals 2 (x_g - mean), squares summed, times G / (G - 1), over N^2.
    double residuals = 2 * std::pow(2 * (win - mean), 2);
    CHECK(scores.models[0].log_loss == Approx(mean));
    CHECK(scores.models[0].log_loss_error == Approx(std::sqrt(residuals * 2) / 4));
}

TEST_CASE("counts with nothing retained cannot be scored", "[compare][scores]") {
    counts::MergedCounts counts;
    counts.counts.add(counts::pack_key({counts::Outcome::Win, 150, 40, 0}), 0);  // move > 120
    CHECK_THROWS_WITH(compare::score_models({flat_model("A", 100, 100)}, counts,
                                            model::Normalization::fixed(100), {}),
                      Catch::Contains("nothing to score"));
}
