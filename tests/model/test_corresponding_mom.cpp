#include <catch2/catch.hpp>

#include "wdl/model/corresponding_mom.hpp"
#include "wdl/model/model_lookup.hpp"

using namespace wdl::model;

TEST_CASE("ply and move moms meet at ply = 2 (move - 1), material moms not at all", "[model]") {
    CHECK(corresponding_mom(MomType::Move, 33, MomType::Ply) == 64);
    CHECK(corresponding_mom(MomType::Ply, 64, MomType::Move) == 33);
    CHECK(corresponding_mom(MomType::Ply, 65, MomType::Move) == 33);
    CHECK(corresponding_mom(MomType::Material, 58, MomType::Material) == 58);
    CHECK_FALSE(corresponding_mom(MomType::Material, 58, MomType::Move));
    CHECK_FALSE(corresponding_mom(MomType::Ply, 64, MomType::Material));
}

TEST_CASE("displayed_by maps a displayed eval between models at corresponding moms", "[model]") {
    auto sf16 = load_model("sf16").model, sf161 = load_model("sf16.1").model;
    auto sf18 = load_model("sf18").model;
    // sf16.1 (move) at move 21 meets sf16 (ply) at ply 40, each displayed by its
    // NormalizeToPawnValue: 356 and 328.
    CHECK(*displayed_by(sf161, 21, 2.5, sf16) == Approx(2.5 * 356 / 328));
    CHECK(*displayed_by(sf18, 40, -1.5, sf18) == Approx(-1.5));
    CHECK_FALSE(displayed_by(sf18, 40, 1, sf16));
}
