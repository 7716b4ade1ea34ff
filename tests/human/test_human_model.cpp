#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "wdl/human/baselines.hpp"
#include "wdl/human/human_model.hpp"
#include "wdl/human/human_model_file.hpp"
#include "wdl/model/published_models.hpp"

using namespace wdl::human;

TEST_CASE("Forms name their parameters in order", "[human][model]") {
    CHECK(parameter_names(HumanForm::Flat) ==
          std::vector<std::string>{"A0", "A1", "A2", "A3", "B0", "B1", "B2", "B3"});
    CHECK(parameter_names(HumanForm::QuadraticDifference).size() == 13);
    CHECK(parameter_names(HumanForm::QuadraticDifference)[8] == "alpha1");
    CHECK(parameter_names(HumanForm::QuadraticDifference)[10] == "beta1");
    CHECK(parameter_names(HumanForm::QuadraticDifference).back() == "g");
    // The richest form, and where its own terms are.
    const HumanForm slip = HumanForm::TempoCeilingMapZeroSlipDifference;
    CHECK(parameter_names(slip) ==
          std::vector<std::string>{"A0",   "A1",     "A2",    "A3",   "B0",    "B1",   "B2",
                                   "B3",   "alpha1", "beta1", "tau0", "kappa", "map1", "map2",
                                   "map3", "map5",   "map7",  "eta",  "zeta",  "g"});
    CHECK(parameter_count(slip) == 20);
    CHECK(slip_index(slip) == 17);
    CHECK(zero_eval_index(slip) == 18);
    for (const auto& entry : kHumanFormNames) {
        CHECK(human_form_from_name(entry.name) == entry.value);
        CHECK(int(parameter_names(entry.value).size()) == parameter_count(entry.value));
    }
}

TEST_CASE("The model's W/D/L by its formula", "[human][model]") {
    HumanModel model = starting_model(HumanForm::QuadraticDifference, 1.5, 2.0);
    model.parameters[1] = 0.5;           // A1
    model.parameters[8] = -0.2;          // alpha1
    model.parameters[9] = 0.05;          // alpha2
    model.parameters[10] = -0.3;         // beta1
    model.parameters[11] = 0.1;          // beta2
    model.parameters[12] = 0.7;          // g
    const Situation at{29, 1900, 1700};  // t = 0.5, l = 0.75, d = 0.5
    const double l = 0.75, a = (1.5 + 0.25) * std::exp(-0.2 * l + 0.05 * l * l),
                 b = 2.0 * std::exp(-0.3 * l + 0.1 * l * l);
    CHECK(model.a(at) == Approx(a).epsilon(1e-14));
    CHECK(model.b(at) == Approx(b).epsilon(1e-14));
    const auto wdl = model.wdl(120, at);
    const double win = 1 / (1 + std::exp(-((1.2 - a) / b + 0.35)));
    const double loss = 1 / (1 + std::exp(-((-1.2 - a) / b - 0.35)));
    CHECK(wdl[0] == Approx(win).epsilon(1e-14));
    CHECK(wdl[2] == Approx(loss).epsilon(1e-14));
    CHECK(wdl[0] + wdl[1] + wdl[2] == Approx(1).epsilon(1e-15));
    // Beyond lichess's ceiling an eval counts as the ceiling; a mate as +-100000 is one.
    CHECK(model.wdl(100000, at) == model.wdl(1000, at));
    CHECK(model.wdl(-100000, at) == model.wdl(-1000, at));
}

TEST_CASE("The side to move's shift tau(l) moves both logits", "[human][model]") {
    HumanModel model = starting_model(HumanForm::LevelTempoDifference, 1.5, 2.0);
    CHECK(parameter_names(model.form) == std::vector<std::string>{"A0", "A1", "A2", "A3", "B0",
                                                                  "B1", "B2", "B3", "alpha1",
                                                                  "beta1", "tau0", "tau1", "g"});
    model.parameters[8] = -0.2;          // alpha1
    model.parameters[9] = -0.3;          // beta1
    model.parameters[10] = -0.1;         // tau0
    model.parameters[11] = 0.04;         // tau1
    model.parameters[12] = 0.7;          // g
    const Situation at{58, 1900, 1700};  // t = 1, l = 0.75, d = 0.5
    const double l = 0.75, a = 1.5 * std::exp(-0.2 * l), b = 2.0 * std::exp(-0.3 * l);
    const double s = -0.1 + 0.04 * l + 0.35;
    CHECK(model.shift(at) == Approx(s).epsilon(1e-14));
    const auto wdl = model.wdl(-80, at);
    CHECK(wdl[0] == Approx(1 / (1 + std::exp(-((-0.8 - a) / b + s)))).epsilon(1e-14));
    CHECK(wdl[2] == Approx(1 / (1 + std::exp(-((0.8 - a) / b - s)))).epsilon(1e-14));
    // Without g the shift is tau alone.
    HumanModel tempo = starting_model(HumanForm::TempoDifference);
    tempo.parameters[tempo_index(tempo.form)] = -0.25;
    tempo.parameters.back() = 0;
    CHECK(tempo.shift(at) == Approx(-0.25).epsilon(1e-14));
}

TEST_CASE("An eval at lichess's ceiling reads as 10 + kappa pawns", "[human][model]") {
    HumanModel model = starting_model(HumanForm::TempoCeilingDifference);
    CHECK(parameter_names(model.form)[ceiling_index(model.form)] == "kappa");
    model.parameters[ceiling_index(model.form)] = 2.5;
    CHECK(model.pawns(999) == Approx(9.99).epsilon(1e-15));
    CHECK(model.pawns(1000) == Approx(12.5).epsilon(1e-15));
    CHECK(model.pawns(-100000) == Approx(-12.5).epsilon(1e-15));
    CHECK(model.pawns(-250) == Approx(-2.5).epsilon(1e-15));
    // Forms without kappa clamp only.
    CHECK(starting_model(HumanForm::TempoDifference).pawns(100000) == 10);
}

TEST_CASE("The eval map moves its knots and interpolates between them", "[human][model]") {
    HumanModel model = starting_model(HumanForm::TempoCeilingMapDifference);
    const auto names = parameter_names(model.form);
    const std::size_t first = eval_map_index(model.form);
    CHECK(names[first - 1] == "kappa");
    CHECK(names[first] == "map1");
    CHECK(names[first + 4] == "map7");
    CHECK(names.back() == "g");
    CHECK(parameter_count(model.form) == 18);
    // map1 +0.5, map2 +0.3, map3 0, map5 -0.6, map7 -0.8; kappa 2.
    model.parameters[first - 1] = 2;
    const std::array<double, 5> moved = {0.5, 0.3, 0.0, -0.6, -0.8};
    for (std::size_t k = 0; k < moved.size(); ++k) model.parameters[first + k] = moved[k];
    // At the knots, by hand: 1.5, 2.3, 3, 4.4, 6.2 pawns.
    CHECK(model.pawns(100) == Approx(1.5).epsilon(1e-15));
    CHECK(model.pawns(200) == Approx(2.3).epsilon(1e-15));
    CHECK(model.pawns(300) == Approx(3.0).epsilon(1e-15));
    CHECK(model.pawns(500) == Approx(4.4).epsilon(1e-15));
    CHECK(model.pawns(700) == Approx(6.2).epsilon(1e-15));
    // Between them, linearly: 0.5 -> 0.75; 4 (halfway 3..5) -> 4 - 0.3; 8.5 (halfway 7..10)
    // -> 8.5 - 0.4; the mirror image below 0.
    CHECK(model.pawns(50) == Approx(0.75).epsilon(1e-15));
    CHECK(model.pawns(400) == Approx(3.7).epsilon(1e-15));
    CHECK(model.pawns(850) == Approx(8.1).epsilon(1e-15));
    CHECK(model.pawns(-400) == Approx(-3.7).epsilon(1e-15));
    CHECK(model.pawns(0) == 0);
    // 0 and the ceiling stay where they are; the ceiling reads 10 + kappa.
    CHECK(model.pawns(999) == Approx(9.99 - 0.8 * 0.01 / 3).epsilon(1e-14));
    CHECK(model.pawns(1000) == Approx(12).epsilon(1e-15));
    CHECK(model.pawns(-100000) == Approx(-12).epsilon(1e-15));
    // The weights of one eval sum to 1 between two knots (a partition of unity).
    for (double pawns : {0.3, 1.0, 2.7, 4.2, 6.9, 9.5}) {
        double sum = 0;
        for (std::size_t k = 0; k < kEvalMapKnots.size(); ++k) sum += eval_map_weight(k, pawns);
        INFO(pawns);
        CHECK(sum == Approx(pawns < 1 ? pawns : pawns > 7 ? (10 - pawns) / 3 : 1.0));
    }
}

TEST_CASE("An eval shown as 0.00 widens the draws by exp(zeta)", "[human][model]") {
    HumanModel model = starting_model(HumanForm::TempoCeilingMapZeroDifference, 1.5, 2.0);
    const auto names = parameter_names(model.form);
    CHECK(parameter_count(model.form) == 19);
    CHECK(names[zero_eval_index(model.form)] == "zeta");
    CHECK(names[zero_eval_index(model.form) - 1] == "map7");
    CHECK(names.back() == "g");
    model.parameters[zero_eval_index(model.form)] = 0.4;
    model.parameters[tempo_index(model.form)] = -0.1;  // tau0
    const Situation at{58, 1500, 1500};                // t = 1, l = 0, d = 0
    // The count file's key 0 holds -2 .. 2 cp: there a = 1.5 exp(0.4); from 3 cp on a = 1.5.
    for (double cp : {0.0, 2.0, -2.0, 2.4}) {
        INFO(cp);
        const double a = 1.5 * std::exp(0.4), x = cp / 100;
        const auto wdl = model.wdl(cp, at);
        CHECK(wdl[0] == Approx(1 / (1 + std::exp(-((x - a) / 2.0 - 0.1)))).epsilon(1e-14));
        CHECK(wdl[2] == Approx(1 / (1 + std::exp(-((-x - a) / 2.0 + 0.1)))).epsilon(1e-14));
    }
    for (double cp : {3.0, -3.0, 100.0}) {
        INFO(cp);
        const double x = cp / 100;
        CHECK(model.wdl(cp, at)[0] ==
              Approx(1 / (1 + std::exp(-((x - 1.5) / 2.0 - 0.1)))).epsilon(1e-14));
    }
    // Forms without zeta read a 0.00 as any other eval.
    HumanModel without = starting_model(HumanForm::TempoCeilingMapDifference, 1.5, 2.0);
    CHECK(without.zero_eval_factor(0) == 1);
}

TEST_CASE("The slip moves the side to move's eval by eta times its size", "[human][model]") {
    HumanModel model = starting_model(HumanForm::TempoCeilingMapZeroSlipDifference, 1.5, 2.0);
    model.parameters[slip_index(model.form)] = -0.05;
    model.parameters[ceiling_index(model.form)] = 2;  // kappa
    model.parameters[tempo_index(model.form)] = -0.1;
    // Map at the identity: x + eta |x|, |x| clamped to 10 also at the ceiling (10 + kappa).
    CHECK(model.pawns(300) == Approx(3 - 0.15).epsilon(1e-15));
    CHECK(model.pawns(-300) == Approx(-3 - 0.15).epsilon(1e-15));
    CHECK(model.pawns(0) == 0);
    CHECK(model.pawns(1000) == Approx(12 - 0.5).epsilon(1e-15));
    CHECK(model.pawns(-100000) == Approx(-12 - 0.5).epsilon(1e-15));
    // Both logits read the moved eval, whichever side of 0 it is.
    const Situation at{58, 1500, 1500};
    for (double cp : {-300.0, 300.0, 1000.0}) {
        INFO(cp);
        const double x =
            cp / 100 + (cp >= 1000 ? 2 : 0) - 0.05 * std::min(std::abs(cp), 1000.0) / 100;
        const auto wdl = model.wdl(cp, at);
        CHECK(wdl[0] == Approx(1 / (1 + std::exp(-((x - 1.5) / 2.0 - 0.1)))).epsilon(1e-14));
        CHECK(wdl[2] == Approx(1 / (1 + std::exp(-((-x - 1.5) / 2.0 + 0.1)))).epsilon(1e-14));
    }
    // The derivative in eta is the clamped eval's size.
    CHECK(model.pawns_gradient(-450)[std::size_t(eval_terms(model.form)) - 1] == 4.5);
    CHECK(model.pawns_gradient(-100000)[std::size_t(eval_terms(model.form)) - 1] == 10);
}

TEST_CASE("lichess's Win% as an expected score, by hand", "[human][baselines]") {
    // 1 / (1 + exp(-0.00368208 cp)), cp clamped to +-1000.
    CHECK(lichess_expected_score(0) == 0.5);
    CHECK(lichess_expected_score(100) == Approx(0.5910258971916128).epsilon(1e-12));
    CHECK(lichess_expected_score(-250) == Approx(0.2848519525637597).epsilon(1e-12));
    CHECK(lichess_expected_score(1500) == Approx(0.9754474363414323).epsilon(1e-12));
    // Its W/D/L keeps the expected score and takes the draw rate where there is room for it.
    for (double cp : {-900.0, -120.0, 0.0, 40.0, 700.0}) {
        const auto wdl = lichess_wdl(cp, 0.3);
        CHECK(wdl[0] + wdl[1] / 2 == Approx(lichess_expected_score(cp)).epsilon(1e-12));
        CHECK(wdl[0] >= 0);
        CHECK(wdl[2] >= 0);
        CHECK(wdl[1] <= 0.3 + 1e-15);
    }
    CHECK(lichess_wdl(0, 0.3)[1] == Approx(0.3));
}

TEST_CASE("lc0's Elo-dependent sharpness, by hand", "[human][baselines]") {
    // E' = E + 125 ln(1 + exp((2737 - E) / 250)); s = 1 / (1/15 + exp(E'/425 - 6.75)).
    CHECK(lc0_game_pair_elo(1500) == Approx(2119.384065072898).epsilon(1e-12));
    CHECK(lc0_sharpness(1000) == Approx(6.183272273357493).epsilon(1e-12));
    CHECK(lc0_sharpness(1500) == Approx(4.198867219128444).epsilon(1e-12));
    CHECK(lc0_sharpness(2000) == Approx(2.634916065665399).epsilon(1e-12));
    CHECK(lc0_sharpness(2800) == Approx(0.9310416998311977).epsilon(1e-12));
    // Equal ratings: no shift, the sharpness of the rating, W = logistic((mu - 1) / s).
    const auto even = lc0_wdl(150, 1500, 1500);
    CHECK(even[0] == Approx(1 / (1 + std::exp(-(0.5 / 4.198867219128444)))).epsilon(1e-12));
    // The stronger side's chances rise at the same eval: mu(E) grows with E.
    CHECK(lc0_mu_offset(1800) > lc0_mu_offset(1500));
    CHECK(lc0_wdl(0, 1800, 1500)[0] > lc0_wdl(0, 1500, 1500)[0]);
}

TEST_CASE("Stockfish's model reads the displayed eval in its pawns", "[human][baselines]") {
    const auto& model = wdl::model::find_published_model("sf")->model;
    // +1.00 displayed at the target material is where Stockfish wins half its games.
    CHECK(stockfish_wdl(model, 100, 58)[0] == Approx(0.5).epsilon(1e-9));
    const auto wdl = stockfish_wdl(model, -40, 30);
    CHECK(wdl[0] + wdl[1] + wdl[2] == Approx(1));
    CHECK(wdl[2] > wdl[0]);
}

TEST_CASE("The human model file reads back what it wrote and refuses what it is not",
          "[human][model]") {
    HumanModelFile file;
    SpeedClassModel rapid;
    rapid.model = starting_model(HumanForm::LevelDifference, 1.25, 2.5);
    rapid.model.parameters.back() = 0.375;
    rapid.standard_errors = std::vector<double>(rapid.model.parameters.size(), 0.125);
    rapid.positions = 1234;
    rapid.groups = 16;
    rapid.rating_low = 625;
    rapid.rating_high = 2725;
    file.classes.push_back(rapid);
    const auto json = nlohmann::json::parse(human_model_json(file).dump());
    const auto back = human_model_from_json(json, "model.json");
    REQUIRE(back.classes.size() == 1);
    const auto* read = back.find(wdl::counts::SpeedClass::Rapid);
    REQUIRE(read);
    CHECK(read->model.form == HumanForm::LevelDifference);
    CHECK(read->model.parameters == rapid.model.parameters);
    CHECK(read->standard_errors == rapid.standard_errors);
    CHECK(!read->covariance);
    CHECK(read->rating_high == 2725);
    CHECK(!back.find(wdl::counts::SpeedClass::Blitz));

    auto refused = [](nlohmann::json changed, const std::string& message) {
        CHECK_THROWS_WITH(human_model_from_json(changed, "model.json"),
                          Catch::Contains("model.json") && Catch::Contains(message));
    };
    auto other_kind = json;
    other_kind["kind"] = "something else";
    refused(other_kind, "is not a human model");
    auto short_parameters = json;
    short_parameters["classes"][0]["parameters"].erase(0);
    refused(short_parameters, "has 11 parameters, not 10");
    auto other_scale = json;
    other_scale["ratingScale"] = 173.7;
    refused(other_scale, "\"ratingScale\" must be 400");
    auto unknown_speed = json;
    unknown_speed["classes"][0]["speed"] = "blindfold";
    refused(unknown_speed, "unknown speed class");
}
