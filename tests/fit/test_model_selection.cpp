#include <catch2/catch.hpp>

#include "selection_data.hpp"
#include "wdl/fit/model_selection.hpp"

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
