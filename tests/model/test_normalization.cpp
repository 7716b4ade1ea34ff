#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "wdl/model/model_lookup.hpp"
#include "wdl/model/normalization.hpp"

using wdl::model::Normalization;

TEST_CASE("round half to even matches Python's round", "[model][normalization]") {
    CHECK(wdl::model::round_half_even(0.5) == 0);
    CHECK(wdl::model::round_half_even(1.5) == 2);
    CHECK(wdl::model::round_half_even(2.5) == 2);
    CHECK(wdl::model::round_half_even(-2.5) == -2);
    CHECK(wdl::model::round_half_even(-3.5) == -4);
    CHECK(wdl::model::round_half_even(2.5000001) == 3);
}

TEST_CASE("static normalization scales by N / 100 with ties to even", "[model][normalization]") {
    auto n = Normalization::fixed(328);
    CHECK(n.pawn_value() == 328);
    CHECK(n.description() == "NormalizeToPawnValue = 328");
    CHECK(n.to_internal(100, 10, 40) == 328);
    CHECK(n.to_internal(-5, 10, 40) == -16);  // -16.4
    CHECK(n.to_internal(25, 10, 40) == 82);   // 82.0
    auto half = Normalization::fixed(10);
    CHECK(half.to_internal(5, 1, 1) == 0);   // 0.5 -> 0
    CHECK(half.to_internal(15, 1, 1) == 2);  // 1.5 -> 2
    CHECK(half.to_internal(25, 1, 1) == 2);  // 2.5 -> 2
    CHECK(half.to_internal(-25, 1, 1) == -2);
}

TEST_CASE("dynamic normalization clamps the mom and evaluates p_a", "[model][normalization]") {
    auto n = Normalization::from_json(wdl::model::kDefaultNormalizeData);
    CHECK(n.pawn_value() == 385);  // int(sum(as) + 0.5) of the default
    CHECK(n.description() ==
          "NormalizeData = {'momType': 'material', 'momMin': 17, 'momMax': 78, 'momTarget': 58, "
          "'as': [-72.32565836, 185.93832038, -144.58862193, 416.44950446]}");
    // At material 58, p_a = sum(as) = 385.47...
    CHECK(n.to_internal(100, 30, 58) == 385);
    // Materials below 17 use p_a(17/58), above 78 p_a(78/58).
    CHECK(n.to_internal(100, 30, 5) == n.to_internal(100, 30, 17));
    CHECK(n.to_internal(100, 30, 90) == n.to_internal(100, 30, 78));
    CHECK(n.to_internal(100, 30, 17) != n.to_internal(100, 30, 78));
}

TEST_CASE("NormalizeData JSON prints as a Python dict in the given order",
          "[model][normalization]") {
    auto n = Normalization::from_json(
        R"({"momMin": 11, "momMax": 120, "momTarget": 32, "as": [1, -2.5, 23.17882135, 307]})");
    CHECK(n.description() ==
          "NormalizeData = {'momMin': 11, 'momMax': 120, 'momTarget': 32, "
          "'as': [1.0, -2.5, 23.17882135, 307.0], 'momType': 'material'}");
    CHECK(n.pawn_value() == int(1 - 2.5 + 23.17882135 + 307 + 0.5));
    auto by_move = Normalization::from_json(
        R"({"momType": "move", "momMin": 11, "momMax": 120, "momTarget": 32, "as": [0, 0, 0, 300]})");
    REQUIRE(by_move.dynamic());
    CHECK(by_move.dynamic()->mom_type == wdl::model::MomType::Move);
    CHECK(by_move.to_internal(-50, 40, 60) == -150);
}

TEST_CASE("invalid NormalizeData is rejected clearly", "[model][normalization]") {
    for (const char* bad :
         {"{", "[]", R"({"momMin": 1, "momMax": 2, "momTarget": 3})",
          R"({"momMin": 1, "momMax": 2, "momTarget": 3, "as": [1]})",
          R"({"momType": "ply", "momMin": 1, "momMax": 2, "momTarget": 3, "as": [1, 2, 3, 4]})",
          R"({"momMax": 2, "momTarget": 3, "as": [1, 2, 3, 4]})"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(Normalization::from_json(bad), std::runtime_error);
    }
}

TEST_CASE("a model with a clamp normalizes as its p_a", "[model][normalization]") {
    wdl::model::WdlModel model;
    model.as = {-72.32565836, 185.93832038, -144.58862193, 416.44950446};
    model.mom_min = 17;
    model.mom_max = 78;
    auto from_model = Normalization::from_model(model);
    auto from_json = Normalization::from_json(wdl::model::kDefaultNormalizeData);
    CHECK(from_model.description() == from_json.description());
    for (int material : {10, 17, 40, 58, 78, 90})
        CHECK(from_model.pawn_scale(20, material) == from_json.pawn_scale(20, material));
    auto without_clamp = model;
    without_clamp.mom_max.reset();
    CHECK_THROWS_WITH(Normalization::from_model(without_clamp), Catch::Contains("momMax"));
    auto ply = model;
    ply.mom_type = wdl::model::MomType::Ply;
    CHECK_THROWS_WITH(Normalization::from_model(ply), Catch::Contains("a(ply)"));
    auto old_units = model;
    old_units.eval_scale = 2.08;
    CHECK_THROWS_WITH(Normalization::from_model(old_units), Catch::Contains("PawnValueEg"));
}

TEST_CASE("a model displayed by a constant normalizes by it, each cp at the middle of its evals",
          "[model][normalization]") {
    // Stockfish 12 to 16.1 printed 100 v / N truncated, whatever the model's mom (ply for 12 to
    // 16): every eval comes back among those the engine printed as the same cp.
    for (const auto& [name, divisor] : std::vector<std::pair<std::string, int>>{
             {"sf12", 208}, {"sf15", 208}, {"sf15.1", 361}, {"sf16", 328}, {"sf16.1", 356}}) {
        CAPTURE(name);
        auto named = wdl::model::load_model(name);
        auto n = Normalization::from_options(std::nullopt, name);
        CHECK(n.pawn_value() == divisor);
        CHECK(!n.dynamic());
        CHECK(n.model().has_value());
        CHECK(n.description().find(fmt::format("100 v / {}, truncated", divisor)) !=
              std::string::npos);
        for (long v = -3 * divisor; v <= 3 * divisor; ++v) {
            long cp = named.model.printed_cp(v, 58);
            CAPTURE(v, cp);
            CHECK(named.model.printed_cp(long(n.to_internal(int(cp), 20, 40)), 58) == cp);
        }
        CHECK(n.to_internal(0, 20, 40) == 0);
        CHECK(n.to_internal(-1, 20, 40) == -n.to_internal(1, 20, 40));
    }
    // 2 printed by 361 stands for 8 to 10 internal; the original's round(2 * 3.61) = 7 is a 1.
    auto sf151 = Normalization::from_options(std::nullopt, std::string("sf15.1"));
    CHECK(sf151.to_internal(2, 20, 40) == 9);
    CHECK(Normalization::fixed(361).to_internal(2, 20, 40) == 7);
}

TEST_CASE("a printed cp is read at the middle of its evals, and a count's ply is White's",
          "[model][normalization]") {
    auto sf151 = wdl::model::load_model("sf15.1").model;  // 100 v / 361, truncated
    CHECK(wdl::model::from_printed_cp(sf151, 2, 40) == Approx(2.5 * 3.61));
    CHECK(wdl::model::from_printed_cp(sf151, -2, 40) == Approx(-2.5 * 3.61));
    CHECK(wdl::model::from_printed_cp(sf151, 0, 40) == 0);
    auto sf18 = wdl::model::load_model("sf18").model;  // 100 v / a(material), rounded
    CHECK(wdl::model::from_printed_cp(sf18, 2, 40) == sf18.from_cp(2, 40));
    CHECK(wdl::model::mom_of_counted(sf151, 30, 60) == 58);
    CHECK(wdl::model::mom_of_counted(sf18, 30, 60) == 60);
}
