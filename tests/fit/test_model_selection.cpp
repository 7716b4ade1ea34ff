#include <catch2/catch.hpp>

#include "selection_data.hpp"
#include "wdl/fit/model_selection.hpp"
#include "wdl/fit/mom_cut.hpp"
#include "wdl/fit/source_comparison.hpp"

using namespace wdl::fit;
using wdl::fit::test::kGameGroups;
using wdl::fit::test::kPoly;
using wdl::fit::test::sample_and_fit;
using wdl::fit::test::sampler;
using wdl::model::CurveForm;
using wdl::model::CurveKind;

TEST_CASE("form names read back, and the default grid holds the cubic and rational forms",
          "[fit][selection]") {
    auto forms = default_selection_forms();
    CHECK(forms.size() >= 20);
    CHECK(std::count(forms.begin(), forms.end(), FormPair{}) == 1);
    for (const auto& forms_pair : forms)
        CHECK(form_pair_from_name(form_pair_name(forms_pair)) == forms_pair);
    CHECK(form_pair_name({}) == "poly3/poly3");
    for (const char* bad : {"poly3", "poly3/", "/poly3", "poly3/poly6", "cubic/cubic"})
        CHECK_FALSE(form_pair_from_name(bad));
}

TEST_CASE("model selection on a cubic truth does not call the cubic worse beyond the noise",
          "[fit][selection]") {
    auto settings = sampler(1000000, true, 64, 5);  // Stockfish 18's cubics
    auto sampled = sample_and_fit(settings);
    std::vector<FormPair> forms{{},
                                {kPoly(2), kPoly(2)},
                                {kPoly(4), kPoly(4)},
                                {CurveForm{CurveKind::Rational, 2}, kPoly(3)}};
    auto selection = select_model(*sampled.data, sampled.options, forms, kGameGroups, {10, 2});
    REQUIRE(selection.cubic);
    const FormScore& cubic = selection.forms[*selection.cubic];
    CHECK(cubic.versus_best <= 2 * cubic.versus_best_error);
    CHECK(*cubic.versus_cubic == 0);
    CHECK(selection.folds == 10);
    CHECK(selection.positions > 0);
    auto text = model_selection_report(selection);
    CHECK_THAT(text, Catch::Contains("poly3/poly3") && Catch::Contains("rational2/poly3") &&
                         Catch::Contains("within the noise"));
    auto json = model_selection_json(selection);
    CHECK(json["forms"].size() == 4);
    CHECK(json["chosen"] == form_pair_name(selection.forms[selection.chosen].forms));
}

TEST_CASE("the learning curve repeats the selection on growing subsamples of the groups",
          "[fit][selection]") {
    auto sampled = sample_and_fit(sampler(400000, true, 64, 8));
    std::vector<FormPair> forms{{}, {kPoly(2), kPoly(2)}, {kPoly(1), kPoly(1)}};
    auto curve = learning_curve(*sampled.data, sampled.options, forms, kGameGroups, {8, 2});
    REQUIRE(curve.size() == 4);
    int groups[] = {8, 16, 32, 64};
    for (std::size_t i = 0; i < curve.size(); ++i) {
        CHECK(curve[i].selection.groups == groups[i]);
        if (i > 0) CHECK(curve[i].selection.positions > curve[i - 1].selection.positions);
    }
    // All the groups: the plain selection.
    auto all = select_model(*sampled.data, sampled.options, forms, kGameGroups, {8, 2});
    CHECK(curve.back().selection.positions == all.positions);
    CHECK(curve.back().selection.forms[0].log_loss == all.forms[0].log_loss);
    CHECK_THAT(learning_curve_report(curve), Catch::Contains("0.125") && Catch::Contains("64"));
}

TEST_CASE("fitting below Stockfish's cut predicts an unclamped truth better there",
          "[fit][selection]") {
    // A truth without a clamp whose a keeps rising below material 17 (516 there, 600 at 3).
    auto settings = sampler(1500000, true, 64, 9);
    settings.model.mom_min.reset();
    settings.model.a_form = kPoly(2);
    settings.model.as = {150, -400, 620};
    GridFilter filter;
    filter.material_min = 3;
    auto sampled = sample_and_fit(settings, Method::OptimizeProbability, {}, {}, filter);
    auto cut = compare_mom_cut(*sampled.data, sampled.options, 17, kGameGroups, {8, 2});
    CHECK(cut.lowest_mom < 17);
    CHECK(cut.below.positions > 0);
    CHECK(cut.above.positions > cut.below.positions);
    CAPTURE(cut.below.difference, cut.below.difference_error, cut.above.difference,
            cut.above.difference_error);
    CHECK(cut.below.difference < -2 * cut.below.difference_error);
    CHECK(std::abs(cut.above.difference) < 3 * cut.above.difference_error + 1e-4);
    CHECK_THAT(mom_cut_report(cut, "material"),
               Catch::Contains("below 17") && Catch::Contains("from 17"));
    // Without data below the cut there is nothing to compare.
    auto above_only = sample_and_fit(sampler(100000, true, 64, 9));
    CHECK_THROWS_WITH(
        compare_mom_cut(*above_only.data, above_only.options, 17, kGameGroups, {8, 2}),
        Catch::Contains("lower the --materialMin"));
}

TEST_CASE("a b(m) per source wins on held-out games where the sources' spreads differ",
          "[fit][selection][sources]") {
    // Two "time controls": the same a(m); the second's b(m) 40 % wider.
    auto first = sample_and_fit(sampler(600000, true, 64, 21));
    auto wider_settings = sampler(600000, true, 64, 22);
    for (double& c : wider_settings.model.bs) c *= 1.4;
    auto wider = sample_and_fit(wider_settings);
    auto alike = sample_and_fit(sampler(600000, true, 64, 23));
    auto differ = compare_sources({first.data.get(), wider.data.get()}, {"stc", "ltc"},
                                  first.options, kGameGroups, {8, 2});
    REQUIRE(differ.kinds.size() == 3);
    const auto& per_b = differ.kinds[1];
    CAPTURE(per_b.minus_pooled, per_b.minus_pooled_error);
    CHECK(per_b.minus_pooled < -3 * per_b.minus_pooled_error);
    // The shared a, and the two b's near the truths' at the target.
    CHECK(per_b.models[0].as == per_b.models[1].as);
    CHECK(per_b.models[1].b_at_target() / per_b.models[0].b_at_target() ==
          Approx(1.4).epsilon(0.05));
    CHECK_THAT(source_comparison_report(differ), Catch::Contains("beyond the noise"));
    auto same = compare_sources({first.data.get(), alike.data.get()}, {"a", "b"}, first.options,
                                kGameGroups, {8, 2});
    CHECK(same.kinds[1].minus_pooled > -3 * same.kinds[1].minus_pooled_error);
    CHECK_THROWS_WITH(
        compare_sources({first.data.get()}, {"one"}, first.options, kGameGroups, {8, 2}),
        Catch::Contains("at least 2"));
}
