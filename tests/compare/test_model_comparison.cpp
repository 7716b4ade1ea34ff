#include <catch2/catch.hpp>
#include <cmath>

#include "wdl/compare/model_comparison.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::compare;
using wdl::model::load_model;

namespace {

// p(t) written out by hand, as a check of the comparison's arithmetic.
double cubic(const wdl::model::Coefficients& c, double t) {
    return c[0] * t * t * t + c[1] * t * t + c[2] * t + c[3];
}

}  // namespace

TEST_CASE("a model compared with itself shows no differences", "[compare]") {
    auto sf17 = load_model("sf17");
    auto comparison = compare_models({sf17, sf17}, {});
    CHECK(comparison.models[0].pawn_value == comparison.models[1].pawn_value);
    CHECK(comparison.notes.empty());
    REQUIRE(comparison.rows.size() == 8);
    for (const auto& row : comparison.rows) {
        CHECK(*row.a[1] - *row.a[0] == 0);
        CHECK(*row.b[1] - *row.b[0] == 0);
        CHECK(*row.displays_reference_pawn[1] == 1.0);
    }
    for (const auto& row : comparison.wdl) {
        CHECK(row.models[0].win == row.models[1].win);
        CHECK(row.models[0].draw == row.models[1].draw);
    }
}

TEST_CASE("the eval one model displays as 1.00 is mapped into another by hand", "[compare]") {
    auto sf17 = load_model("sf17"), sf18 = load_model("sf18");
    auto comparison = compare_models({sf17, sf18}, {{30, 58, 90}, {1}});
    REQUIRE(comparison.rows.size() == 3);
    // At material 58 (t = 1) a is the sum of the coefficients: 371.658 and 385.474.
    CHECK(*comparison.rows[1].a[0] ==
          Approx(-37.45051876 + 121.19101539 - 132.78783573 + 420.70576692));
    CHECK(*comparison.rows[1].displays_reference_pawn[1] ==
          Approx(371.65842782 / 385.47354455).epsilon(1e-9));
    // At material 30, t = 30 / 58.
    double t = 30.0 / 58;
    double a17 = cubic(sf17.model.as, t), a18 = cubic(sf18.model.as, t);
    CHECK(*comparison.rows[0].a[0] == Approx(a17));
    CHECK(*comparison.rows[0].displays_reference_pawn[1] == Approx(a17 / a18));
    // Stockfish clamps the material to 17..78: at 90 the models are read at 78.
    CHECK(*comparison.rows[2].a[1] == Approx(cubic(sf18.model.as, 78.0 / 58)));
    // Every model wins half of its games at the eval it displays as 1.00.
    for (const auto& point : comparison.wdl[0].models) CHECK(point.win == Approx(0.5));
}

TEST_CASE("ply and move models meet at ply = 2 (move - 1), material models not at all",
          "[compare]") {
    auto sf16 = load_model("sf16"), sf161 = load_model("sf16.1"), sf17 = load_model("sf17");
    auto comparison = compare_models({sf16, sf161, sf17}, {{64}, {0}});
    const auto& row = comparison.rows[0];
    // SF 16.1 at move 33 = (33 / 32) of its target; SF 16 at ply 64 = its target.
    CHECK(*row.a[0] == Approx(wdl::model::curve_at_target({}, sf16.model.as)));
    CHECK(*row.a[1] == Approx(cubic(sf161.model.as, 33.0 / 32)));
    CHECK_FALSE(row.a[2]);
    CHECK_FALSE(comparison.models[2].comparable_mom);
    REQUIRE(comparison.notes.size() == 2);
    CHECK_THAT(comparison.notes[0], Catch::Contains("ply = 2 (move - 1)"));
    CHECK_THAT(comparison.notes[1], Catch::Contains("compared only by its constants"));
    // The W/D/L of a model whose mom does not correspond is taken at its own target.
    double a17 = wdl::model::curve_at_target({}, sf17.model.as);
    CHECK(comparison.wdl[0].models[2].draw == Approx(sf17.model.draw(0, 58)));
    CHECK(comparison.models[2].pawn_value == Approx(a17));
}

TEST_CASE("models of PawnValueEg units are compared in internal units", "[compare]") {
    auto sf12 = load_model("sf12"), sf16 = load_model("sf16");
    auto comparison = compare_models({sf16, sf12}, {{64}, {1}});
    CHECK(*comparison.rows[0].a[1] ==
          Approx(2.08 * wdl::model::curve_at_target({}, sf12.model.as)));
    CHECK_THAT(comparison.notes.back(), Catch::Contains("PawnValueEg"));
}

TEST_CASE("the comparison's text and JSON carry the same figures", "[compare]") {
    auto comparison = compare_models({load_model("sf17"), load_model("sf18")}, {});
    auto text = comparison_text(comparison);
    CHECK_THAT(text, Catch::Contains("NormalizeToPawnValue") && Catch::Contains("371.7") &&
                         Catch::Contains("385.5") && Catch::Contains("13.8"));
    auto json = comparison_json(comparison);
    CHECK(json["models"][1]["pawnValue"].get<double>() == Approx(385.47354455));
    CHECK(json["moms"].size() == 8);
    CHECK(json["wdl"][2]["pawns"] == 1);
    CHECK_THROWS_AS(compare_models({load_model("sf17")}, {}), wdl::Error);
}

TEST_CASE("the W/D/L table at another material reads each model there", "[compare]") {
    auto sf17 = load_model("sf17"), sf18 = load_model("sf18");
    auto comparison = compare_models({sf17, sf18}, {});
    auto rows = wdl_table(comparison, 30, {0, 1, 2});
    REQUIRE(rows.size() == 3);
    double t = 30.0 / 58;
    for (std::size_t m = 0; m < 2; ++m) {
        const auto& model = m == 0 ? sf17.model : sf18.model;
        double a = cubic(model.as, t), b = cubic(model.bs, t);
        // At 0.00 the win and loss rates are equal; at 1.00 the model wins half.
        CHECK(rows[0].models[m].win == Approx(rows[0].models[m].loss));
        CHECK(rows[1].models[m].internal_eval == Approx(a));
        CHECK(rows[1].models[m].win == Approx(0.5));
        // At 2.00: x = 2a, W = 1 / (1 + exp(-(2a - a) / b)), L = 1 / (1 + exp(-(-2a - a) / b)).
        CHECK(rows[2].models[m].win == Approx(1 / (1 + std::exp(-a / b))));
        CHECK(rows[2].models[m].loss == Approx(1 / (1 + std::exp(3 * a / b))));
        CHECK(rows[0].models[m].draw == Approx(1 - 2 / (1 + std::exp(a / b))));
        // Not the table at the target.
        CHECK(rows[0].models[m].draw != Approx(comparison.wdl[0].models[m].draw));
    }
}

TEST_CASE("lc0's sharpness and WDL_mu of each model, by hand", "[compare][lc0]") {
    auto sf17 = load_model("sf17"), sf18 = load_model("sf18"), sf16 = load_model("sf16");
    auto comparison = compare_models({sf17, sf18, sf16}, {});
    const auto& models = comparison.models;
    // s = b / a at the target: the sums of the coefficients.
    double a17 = cubic(sf17.model.as, 1), b17 = cubic(sf17.model.bs, 1);
    double a18 = cubic(sf18.model.as, 1), b18 = cubic(sf18.model.bs, 1);
    CHECK(*models[0].lc0_sharpness == Approx(b17 / a17));
    CHECK(*models[1].lc0_sharpness == Approx(b18 / a18));
    CHECK(models[1].normalized_spread == Approx(b18 / a18));
    // mu of the eval sf17 displays as 1.00 (a17 internal) under sf18 is a17 / a18.
    CHECK(*models[0].lc0_mu_of_reference_pawn == Approx(1));
    CHECK(*models[1].lc0_mu_of_reference_pawn == Approx(a17 / a18));
    // A ply model has no material to read sf17's eval at.
    CHECK_FALSE(models[2].lc0_mu_of_reference_pawn);
    CHECK(models[2].lc0_sharpness);
    auto json = comparison_json(comparison);
    CHECK(json["models"][1]["lc0"]["sharpness"].get<double>() == Approx(b18 / a18));
    CHECK(json["models"][2]["lc0"]["wdlMuOfReferencePawn"].is_null());
    auto text = comparison_text(comparison);
    CHECK_THAT(text, Catch::Contains("lc0 sharpness s"));
    CHECK_THAT(text, Catch::Contains("lc0 WDL_mu of 1.00 of A"));
}
