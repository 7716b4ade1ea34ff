#include <catch2/catch.hpp>
#include <cmath>

#include "sanitizer.hpp"
#include "wdl/human/human_data.hpp"
#include "wdl/human/human_fit.hpp"
#include "wdl/human/synthetic_games.hpp"

using namespace wdl::human;

namespace {

// A rapid-like truth: a grows with material and falls with the level, the spread narrows as
// the level rises, the rating difference shifts the logits.
HumanModel truth(HumanForm form) {
    HumanModel model = starting_model(form, 1.2, 1.6);
    model.parameters[1] = 0.6;  // A1
    model.parameters[5] = 0.4;  // B1
    const int terms = level_terms(form);
    if (terms >= 1) {
        model.parameters[8] = -0.15;                       // alpha1
        model.parameters[8 + std::size_t(terms)] = -0.35;  // beta1
    }
    if (terms >= 2) {
        model.parameters[9] = 0.03;   // alpha2
        model.parameters[11] = 0.05;  // beta2
    }
    if (tempo_terms(form) >= 1) model.parameters[tempo_index(form)] = -0.1;      // tau0
    if (tempo_terms(form) >= 2) model.parameters[tempo_index(form) + 1] = 0.04;  // tau1
    if (has_ceiling(form)) model.parameters[ceiling_index(form)] = 1.5;          // kappa
    if (has_eval_map(form)) {  // faster over the first pawns, slower over the next, as people
        const std::array<double, kEvalMapKnots.size()> displacements = {0.5, 0.3, 0.0, -0.6, -0.8};
        for (std::size_t k = 0; k < displacements.size(); ++k)
            model.parameters[eval_map_index(form) + k] = displacements[k];
    }
    if (has_slip(form)) model.parameters[slip_index(form)] = -0.05;          // eta
    if (has_zero_eval(form)) model.parameters[zero_eval_index(form)] = 0.4;  // zeta
    if (has_difference(form)) model.parameters.back() = 0.5;
    return model;
}

// Every (material, eval, ratings) of a grid with the model's exact probabilities as counts.
HumanData exact_data(const HumanModel& model, int groups) {
    HumanData data;
    data.groups = groups;
    int group = 0;
    // Every 60 cp to +-600 (+-960 where the eval map reaches to 10 pawns), and lichess's
    // ceiling beyond where the form reads it.
    const int steps = has_eval_map(model.form) ? 16 : 10;
    const int widest = steps + (has_ceiling(model.form) ? 1 : 0);
    for (int material = 6; material <= 78; material += 8)
        for (int level = 900; level <= 2400; level += 300) {
            // The unit of evals not shown as 0.00, then the unit of those that are.
            for (bool zero_eval : {false, true})
                data.units.push_back({material, (level - kLevelCentre) / kRatingScale, zero_eval});
            for (int difference = -300; difference <= 300; difference += 150)
                for (int step = -widest; step <= widest; ++step) {
                    const int cp = std::abs(step) > steps ? (step < 0 ? -1000 : 1000) : 60 * step;
                    HumanCell cell{std::uint32_t(data.units.size() - (is_zero_eval(cp) ? 1 : 2)),
                                   group,
                                   cp,
                                   level + difference / 2,
                                   level - difference / 2,
                                   {}};
                    const auto p = model.wdl(cp, cell.situation(data.units[cell.unit]));
                    for (std::size_t o = 0; o < 3; ++o) cell.outcomes[o] = 1000 * p[o];
                    data.positions += cell.positions();
                    data.cells.push_back(cell);
                    group = (group + 1) % groups;
                }
        }
    return data;
}

HumanData synthetic_data(HumanForm form, std::uint64_t seed, std::uint64_t games,
                         int positions_per_game = 20, int groups = 32) {
    SyntheticHumanSettings settings;
    settings.groups = groups;
    settings.model = truth(form);
    settings.games = games;
    settings.positions_per_game = positions_per_game;
    settings.seed = seed;
    auto by_speed = human_data_by_speed(synthetic_human_counts(settings));
    REQUIRE(by_speed.size() == 1);
    return by_speed[0];
}

}  // namespace

TEST_CASE("The loss's derivatives are those of its finite differences", "[human][fit]") {
    const HumanForm form = GENERATE(
        HumanForm::QuadraticDifference, HumanForm::LevelTempoDifference,
        HumanForm::TempoCeilingDifference, HumanForm::TempoCeilingMapDifference,
        HumanForm::TempoCeilingMapZeroDifference, HumanForm::TempoCeilingMapZeroSlipDifference);
    INFO(human_form_name(form));
    // Synthetic games seldom reach the ceiling: kappa's derivatives need the exact grid's.
    const HumanData data =
        has_ceiling(form) ? exact_data(truth(form), 4) : synthetic_data(form, 3, 200);
    HumanModel model = truth(form);
    model.parameters[2] = 0.1;  // away from the truth: the derivatives' every term matters
    const auto at = human_loss(data, model);
    REQUIRE(std::isfinite(at.value));
    const std::size_t n = model.parameters.size();
    const double h = 1e-5;
    for (std::size_t i = 0; i < n; ++i) {
        HumanModel up = model, down = model;
        up.parameters[i] += h;
        down.parameters[i] -= h;
        const auto above = human_loss(data, up), below = human_loss(data, down);
        const double scale = std::max(1.0, std::abs(at.gradient[i]));
        CHECK(std::abs((above.value - below.value) / (2 * h) - at.gradient[i]) < 1e-4 * scale);
        for (std::size_t j = 0; j < n; ++j) {
            const double numeric = (above.gradient[j] - below.gradient[j]) / (2 * h);
            CHECK(std::abs(numeric - at.hessian[i][j]) <
                  1e-4 * std::max(1.0, std::abs(at.hessian[i][j])));
        }
    }
}

TEST_CASE("The fit gives back a model from its exact probabilities", "[human][fit]") {
    for (HumanForm form :
         {HumanForm::Flat, HumanForm::LevelDifference, HumanForm::QuadraticDifference,
          HumanForm::TempoDifference, HumanForm::LevelTempoDifference,
          HumanForm::TempoCeilingDifference, HumanForm::TempoCeilingMapDifference,
          HumanForm::TempoCeilingMapZeroDifference, HumanForm::TempoCeilingMapZeroSlipDifference}) {
        const HumanModel model = truth(form);
        const HumanFit fit = fit_human_model(exact_data(model, 4), form);
        INFO(human_form_name(form) << ": " << fit.failure);
        REQUIRE(fit.converged);
        CHECK(fit.positive_curvature);
        CHECK(fit.gradient_per_position < kMaxGradientPerPosition);
        for (std::size_t i = 0; i < model.parameters.size(); ++i)
            CHECK(fit.model.parameters[i] == Approx(model.parameters[i]).margin(1e-6));
    }
}

TEST_CASE("Groups weighted out are left out of the loss", "[human][fit]") {
    const HumanData data = exact_data(truth(HumanForm::LevelDifference), 4);
    const HumanModel model = truth(HumanForm::LevelDifference);
    double sum = 0;
    for (int fold = 0; fold < 4; ++fold)
        sum += human_loss(data, model, fold_weights(4, 4, fold, true), false).value;
    CHECK(sum == Approx(human_loss(data, model, {}, false).value).epsilon(1e-12));
}

TEST_CASE("Synthetic games give back their model within the jackknife's intervals",
          "[human][fit][coverage]") {
    // Over seeds, each parameter's 95 % interval covers the truth about 95 % of the time.
    const HumanForm form = HumanForm::LevelDifference;
    const HumanModel model = truth(form);
    const int seeds = wdl::testing::repetitions(6, 2);
    int intervals = 0, covered = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        const HumanData data = synthetic_data(form, std::uint64_t(seed), 4000, 10, 16);
        const HumanFit fit = fit_human_model(data, form);
        REQUIRE(fit.converged);
        const HumanUncertainty uncertainty = jackknife_human(data, fit, seed % 2 ? 1 : 3);
        INFO(uncertainty.no_interval);
        REQUIRE(uncertainty.estimates.size() == model.parameters.size());
        CHECK(uncertainty.replicates == uncertainty.groups);
        for (std::size_t i = 0; i < model.parameters.size(); ++i) {
            const auto& estimate = uncertainty.estimates[i];
            ++intervals;
            covered += estimate.low <= model.parameters[i] && model.parameters[i] <= estimate.high;
        }
    }
    INFO(covered << " of " << intervals);
    CHECK(covered >= wdl::testing::fewest_covers_of_95(intervals));
    CHECK(covered <= wdl::testing::most_covers_of_95(intervals));
}

TEST_CASE("The jackknife does not depend on the threads", "[human][fit]") {
    const HumanData data = synthetic_data(HumanForm::Difference, 5, 300);
    const HumanFit fit = fit_human_model(data, HumanForm::Difference);
    REQUIRE(fit.converged);
    const auto one = jackknife_human(data, fit, 1), several = jackknife_human(data, fit, 3);
    REQUIRE(one.estimates.size() == several.estimates.size());
    for (std::size_t i = 0; i < one.estimates.size(); ++i)
        CHECK(one.estimates[i].standard_error == several.estimates[i].standard_error);
}

TEST_CASE("Held-out log-loss chooses the form games were drawn from", "[human][fit]") {
    const HumanData data = synthetic_data(HumanForm::LevelDifference, 11, 2500);
    const std::vector<HumanForm> forms = {HumanForm::Flat, HumanForm::Difference, HumanForm::Level,
                                          HumanForm::LevelDifference,
                                          HumanForm::QuadraticDifference};
    const HumanSelection one = select_human_form(data, forms, 5, 1);
    const HumanSelection several = select_human_form(data, forms, 5, 2);
    REQUIRE(one.forms.size() == forms.size());
    for (const auto& score : one.forms) {
        INFO(score.failure);
        CHECK(score.scored());
    }
    CHECK(one.forms[one.chosen].form == HumanForm::LevelDifference);
    // The rating-blind form is clearly worse than the one with ratings.
    CHECK(one.forms[0].versus_best > 3 * one.forms[0].versus_best_error);
    for (std::size_t f = 0; f < forms.size(); ++f)
        CHECK(one.forms[f].log_loss == several.forms[f].log_loss);
}

TEST_CASE("Synthetic games whose sides alternate count each side's positions with its result",
          "[human][fit]") {
    SyntheticHumanSettings settings;
    settings.model = truth(HumanForm::TempoDifference);
    settings.games = 1;
    settings.positions_per_game = 40;
    settings.difference_sd = 400;  // two distinct ratings
    for (bool alternate : {false, true}) {
        settings.alternate_sides = alternate;
        const auto counts = synthetic_human_counts(settings);
        std::uint64_t positions = 0, first_side = 0;
        const auto& first = counts.cells.front().key;
        for (const auto& cell : counts.cells) {
            positions += cell.count;
            const bool same = cell.key.rating == first.rating;
            INFO(alternate << ": " << cell.key.rating << " against " << cell.key.opponent_rating);
            if (same) {
                first_side += cell.count;
                CHECK(cell.key.position.result == first.position.result);
            } else {
                // The other side: the ratings swapped, the result reversed.
                CHECK(cell.key.rating == first.opponent_rating);
                CHECK(cell.key.opponent_rating == first.rating);
                CHECK(cell.key.position.result == wdl::counts::opposite(first.position.result));
            }
        }
        REQUIRE(first.rating != first.opponent_rating);
        if (!alternate) CHECK(first_side == positions);
        // Positions 0, 2, 4, ... are one side's, 1, 3, ... the other's.
        if (alternate) CHECK(std::max(first_side, positions - first_side) == (positions + 1) / 2);
    }
}
