#include <catch2/catch.hpp>
#include <cmath>

#include "wdl/markov/eval_classes.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::markov;

namespace {

// Every eval the scanner yields lands in the mirror class of its negation (0 excepted where it
// has no class of its own).
void check_symmetry(const ClassScheme& classes) {
    for (int cp = -1001; cp <= 1001; ++cp) {
        if (cp == 0 && classes.centre() == Centre::Split) continue;
        INFO("cp " << cp);
        REQUIRE(classes.class_of(-cp) == classes.mirror(classes.class_of(cp)));
    }
}

}  // namespace

TEST_CASE("Alliot's 19 classes have the bounds worked out by hand from his factor",
          "[markov][classes]") {
    // -100 ln(e^-2 + (1 - e^-2)(1 - i/8)), i = 1..8, evaluated separately (Python).
    const double by_hand[] = {11.4382, 24.3558,  39.1931,  56.6219,
                              77.7432, 104.5541, 141.2974, 200.0};
    auto bounds = log19_bounds();
    REQUIRE(bounds.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) CHECK(bounds[i] == Approx(by_hand[i]).margin(1e-4));
    // Widths grow from about 10 to about 50 centipawns, as Alliot describes them.
    CHECK(bounds[0] == Approx(10).margin(2));
    CHECK(bounds[7] - bounds[6] == Approx(50).margin(10));

    auto classes = ClassScheme::log19();
    REQUIRE(classes.size() == 19);
    CHECK(classes.class_of(0) == 9);
    CHECK(classes.class_of(1) == 10);
    CHECK(classes.class_of(11) == 10);
    CHECK(classes.class_of(12) == 11);
    CHECK(classes.class_of(-12) == 7);
    CHECK(classes.class_of(200) == 17);
    CHECK(classes.class_of(201) == 18);
    CHECK(classes.class_of(-201) == 0);
    CHECK(classes.class_of(1001) == 18);
    CHECK(classes.class_of(-1001) == 0);
    CHECK(classes.label(9) == "0.00");
    CHECK(classes.label(10) == "0.00..0.11");
    CHECK(classes.label(18) == ">2.00");
    CHECK(classes.label(0) == "<-2.00");
    check_symmetry(classes);
}

TEST_CASE("Alliot's 10 classes are 0.4 pawns wide with extremes beyond 1.6", "[markov][classes]") {
    auto classes = ClassScheme::linear10();
    REQUIRE(classes.size() == 10);
    CHECK(classes.class_of(0) == 5);   // 0 counts with the class above it
    CHECK(classes.class_of(40) == 5);  // (0, 0.4]
    CHECK(classes.class_of(41) == 6);
    CHECK(classes.class_of(-1) == 4);
    CHECK(classes.class_of(-40) == 4);
    CHECK(classes.class_of(-41) == 3);
    CHECK(classes.class_of(160) == 8);
    CHECK(classes.class_of(161) == 9);
    CHECK(classes.class_of(-161) == 0);
    CHECK(classes.label(6) == "0.40..0.80");
    CHECK(classes.label(3) == "-0.80..-0.40");
    CHECK(classes.label(9) == ">1.60");
    CHECK(classes.lower(5) == 0);
    CHECK(classes.upper(4) == 0);
    check_symmetry(classes);
}

TEST_CASE("model-aware classes lie at equal steps of expected score", "[markov][classes]") {
    // a = 100, b = 50 at every material: a displayed eval v is v internal units. The bounds were
    // found by bisection on score(v) = (1 + win(v) - loss(v)) / 2 in Python.
    wdl::model::WdlModel model;
    model.as = {0, 0, 0, 100};
    model.bs = {0, 0, 0, 50};
    auto four = ClassScheme::equal_score(model, "test", 4);
    REQUIRE(four.size() == 4);
    REQUIRE(four.centre() == Centre::Split);
    REQUIRE(four.positive_bounds().size() == 1);
    CHECK(four.positive_bounds()[0] == Approx(103.368122).margin(1e-5));
    auto five = ClassScheme::equal_score(model, "test", 5);
    REQUIRE(five.size() == 5);
    REQUIRE(five.centre() == Centre::Band);
    CHECK(five.positive_bounds()[0] == Approx(45.509093).margin(1e-5));
    CHECK(five.positive_bounds()[1] == Approx(122.681591).margin(1e-5));
    CHECK(five.class_of(45) == 2);
    CHECK(five.class_of(-45) == 2);
    CHECK(five.class_of(46) == 3);
    CHECK(five.class_of(123) == 4);
    CHECK(five.label(2) == "-0.46..0.46");
    check_symmetry(five);
    // Steps the model never reaches within 10 pawns.
    model.bs = {0, 0, 0, 5000};
    CHECK_THROWS_WITH(ClassScheme::equal_score(model, "flat", 19),
                      Catch::Contains("never gives an expected score"));
}

TEST_CASE("custom bounds are mirrored and a leading 0 adds an exact-0 class", "[markov][classes]") {
    auto classes = ClassScheme::custom({0, 0.25, 0.5});
    REQUIRE(classes.size() == 7);
    CHECK(classes.class_of(0) == 3);
    CHECK(classes.class_of(25) == 4);
    CHECK(classes.class_of(26) == 5);
    CHECK(classes.class_of(51) == 6);
    CHECK(classes.class_of(-51) == 0);
    check_symmetry(classes);
    auto split = ClassScheme::custom({1, 2});
    CHECK(split.size() == 6);
    check_symmetry(split);
    CHECK_THROWS_AS(ClassScheme::custom({0.5, 0.25}), wdl::Error);
    CHECK_THROWS_AS(ClassScheme::custom({1, 20}), wdl::Error);
    CHECK_THROWS_AS(ClassScheme::custom({-1, 1}), wdl::Error);
}
