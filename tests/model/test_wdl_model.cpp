#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "program_runner.hpp"
#include "wdl/model/lc0_wdl.hpp"
#include "wdl/model/model_file.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/model/win_rate_eval.hpp"
#include "wdl/util/error.hpp"

using wdl::model::WdlModel;

namespace {

// Stockfish 17's model (uci.cpp), as published.
WdlModel stockfish_17() {
    WdlModel model;
    model.as = {-37.45051876, 121.19101539, -132.78783573, 420.70576692};
    model.bs = {90.26261072, -137.26549898, 71.10130540, 51.35259597};
    return model;
}

}  // namespace

TEST_CASE("a model gives win, draw and loss rates that sum to one", "[model][wdl]") {
    WdlModel model = stockfish_17();
    for (double mom : {17.0, 40.0, 58.0, 78.0}) {
        for (double eval : {-800.0, -100.0, 0.0, 37.0, 400.0}) {
            CAPTURE(mom, eval);
            double w = model.win(eval, mom), d = model.draw(eval, mom), l = model.loss(eval, mom);
            CHECK(w + d + l == Approx(1.0));
            CHECK(model.score(eval, mom) == Approx(w + d / 2));
            CHECK(model.loss(eval, mom) == Approx(model.win(-eval, mom)));
        }
    }
    // At eval = a(mom) the engine wins half of its games, by the definition of a.
    CHECK(model.win(model.a(58), 58) == Approx(0.5));
    CHECK(model.a(58) == Approx(wdl::model::curve_at_target({}, model.as)));
}

TEST_CASE("the derived constants follow from the coefficient sums", "[model][wdl]") {
    WdlModel model = stockfish_17();
    double sum_a = wdl::model::curve_at_target({}, model.as);
    double sum_b = wdl::model::curve_at_target({}, model.bs);
    CHECK(model.pawn_value() == long(sum_a + 0.5));
    CHECK(model.pawn_value() == 372);
    CHECK(model.spread() == long(sum_b + 0.5));
    CHECK(model.normalized_spread() == Approx(sum_b / sum_a));
    // The draw rate at eval 0 is 1 - 2 win(0) at the target.
    CHECK(model.draw_rate_at_zero() == Approx(1 - 2 * model.win(0, 58)));
    CHECK(wdl::model::curve_text({}, {-1.5, 2, 3.25, 400}, 58) ==
          "((-1.500 * x / 58 + 2.000) * x / 58 + 3.250) * x / 58 + 400.000");
}

TEST_CASE("models round-trip through their JSON", "[model][file]") {
    WdlModel model = stockfish_17();
    model.mom_type = wdl::model::MomType::Move;
    model.mom_target = 32;
    auto json = wdl::model::model_json(model);
    CHECK(json["NormalizeToPawnValue"] == model.pawn_value());
    // lc0's sharpness at the target is the normalized spread; its mu of an eval x is x / a.
    CHECK(json["lc0"]["sharpness"].get<double>() == Approx(model.normalized_spread()));
    CHECK(json["lc0"]["muPerInternalUnit"].get<double>() == Approx(1 / model.a(32)));
    auto back = wdl::model::model_from_json(nlohmann::json::parse(json.dump()), "test");
    CHECK(back.as == model.as);
    CHECK(back.bs == model.bs);
    CHECK(back.mom_type == model.mom_type);
    CHECK(back.mom_target == 32);
    // A whole scoreWDL --json document holds the model under "model".
    auto document = nlohmann::json{{"model", json}, {"retained", {{"W", 1}}}};
    CHECK(wdl::model::model_from_json(document, "test").as == model.as);
}

TEST_CASE("malformed model JSON is an error naming its source", "[model][file]") {
    for (const char* text :
         {R"({"as": [1, 2, 3, 4, 5, 6, 7], "bs": [1, 2, 3, 4]})", R"({"as": [1, 2, 3, 4]})",
          R"({"as": [1, 2, 3, 4], "bs": [1, 2, 3, 4], "momType": "plies"})",
          R"({"as": [1, 2, 3, 4], "bs": [1, 2, 3, 4], "momTarget": 0})", "[1]"}) {
        CAPTURE(text);
        CHECK_THROWS_WITH(wdl::model::model_from_json(nlohmann::json::parse(text), "m.json"),
                          Catch::Contains("m.json"));
    }
    auto path = wdl::testing::scratch_directory() / "wdl_test_model_broken.json";
    std::ofstream(path) << "{ not json";
    CHECK_THROWS_AS(wdl::model::read_model_file(path), wdl::Error);
}

TEST_CASE("eval_for_win inverts the win rate", "[model][wdl]") {
    WdlModel model = stockfish_17();
    for (double mom : {20.0, 58.0, 70.0}) {
        for (double win : {0.01, 0.25, 0.5, 0.9}) {
            CAPTURE(mom, win);
            double x = wdl::model::eval_for_win(model, win, mom);
            CHECK(model.win(x, mom) == Approx(win).epsilon(1e-12));
        }
    }
    // Half of the games are won at a(mom), by the definition of a.
    CHECK(wdl::model::eval_for_win(model, 0.5, 40) == Approx(model.a(40)));
}

TEST_CASE("lc0's mu and sharpness of a model's W/D/L are x / a and b / a", "[model][lc0]") {
    // A hand-computed case: W = 0.5 puts mu at 1; L = 0.1 gives s = 2 / ln 9.
    auto half = wdl::model::lc0_wdl(0.5, 0.1);
    REQUIRE(half);
    CHECK(half->mu == Approx(1.0));
    CHECK(half->sharpness == Approx(2 / std::log(9.0)));
    WdlModel model = stockfish_17();
    for (double mom : {24.0, 58.0, 78.0}) {
        for (double x : {-300.0, 0.0, 123.0, 500.0}) {
            CAPTURE(mom, x);
            auto lc0 = wdl::model::lc0_wdl(model.win(x, mom), model.loss(x, mom));
            REQUIRE(lc0);
            CHECK(lc0->mu == Approx(x / model.a(mom)).margin(1e-9));
            CHECK(lc0->sharpness == Approx(model.b(mom) / model.a(mom)));
        }
    }
    auto at_target = wdl::model::lc0_wdl(model.win(0, 58), model.loss(0, 58));
    REQUIRE(at_target);
    CHECK(at_target->sharpness == Approx(model.normalized_spread()));
    // Certain outcomes have no logistic reading.
    CHECK_FALSE(wdl::model::lc0_wdl(1, 0));
    CHECK_FALSE(wdl::model::lc0_wdl(0.6, 0.4));
}
