// Each era's display rule against Stockfish's own arithmetic at its release tag
// (tests/support/stockfish_arithmetic.hpp): the printed cp, the printed W/D/L, and the W/D/L
// wdlfit gives a printed cp.
#include <catch2/catch.hpp>

#include "stockfish_arithmetic.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/model/stockfish_source.hpp"

using namespace wdl;
using testing::StockfishRelease;

namespace {

double mom_of(const model::WdlModel& m, int ply, int material) {
    switch (m.mom_type) {
        case model::MomType::Material:
            return material;
        case model::MomType::Move:
            return ply / 2 + 1;
        case model::MomType::Ply:
            return ply;
    }
    return 0;
}

int per_mille(double p) { return int(0.5 + 1000 * p); }

}  // namespace

TEST_CASE("every era's model displays and clamps as its Stockfish did", "[model][display]") {
    for (const auto& release : testing::stockfish_releases()) {
        CAPTURE(release.name);
        auto m = model::load_model(release.name).model;
        CHECK(m.display.pawn_divisor.value_or(0) == release.divisor);
        CHECK(m.display.eval_limit.value_or(0) == release.limit);
        int worst_cp = 0, worst_rate = 0;
        double worst_bracket = 0;
        for (int ply = 0; ply <= 300; ply += 11) {
            int material = ply % 80;
            double mom = mom_of(m, ply, material);
            for (int v = -6000; v <= 6000; v += 7) {
                int cp = testing::stockfish_cp(release, v, ply, material);
                int win = testing::stockfish_win_rate(release, v, ply, material);
                int loss = testing::stockfish_win_rate(release, -v, ply, material);
                worst_cp = std::max(worst_cp, int(std::abs(m.printed_cp(v, mom) - cp)));
                worst_rate = std::max({worst_rate, std::abs(per_mille(m.win(v, mom)) - win),
                                       std::abs(per_mille(m.loss(v, mom)) - loss)});
                // From the printed cp back: the engine's W and L lie between the model's at
                // the two ends of the cps that display as cp.
                auto bracket = testing::cp_bracket(release.divisor, cp);
                for (auto [printed, sign] : {std::pair{win, 1}, std::pair{loss, -1}}) {
                    double at_low = 1000 * m.win(sign * m.from_cp(bracket[0], mom), mom);
                    double at_high = 1000 * m.win(sign * m.from_cp(bracket[1], mom), mom);
                    double below = std::min(at_low, at_high) - 0.5 - printed;
                    double above = printed - std::max(at_low, at_high) - 0.5;
                    worst_bracket = std::max({worst_bracket, below, above});
                }
            }
        }
        CHECK(worst_cp == 0);
        CHECK(worst_rate == 0);
        CHECK(worst_bracket <= 0);
    }
}

TEST_CASE("the display rule is read from a Stockfish source's lines", "[model][display]") {
    CHECK(model::eval_limit_of("std::clamp(double(v), -4000.0, 4000.0)") == 4000);
    CHECK(model::eval_limit_of("Utility::clamp(double(100 * v) / PawnValueEg, -1000.0, 1000.0)") ==
          1000);
    CHECK_FALSE(model::eval_limit_of("double(v)"));
    // Stockfish 15.1's lines: NormalizeToPawnValue in uci.h, the clamped eval in uci.cpp.
    auto sf151 = model::parse_stockfish_model(
        "const int NormalizeToPawnValue = 361;\n"
        "double m = std::min(240, ply) / 64.0;\n"
        "constexpr double as[] = {-0.58270499, 2.68512549, 15.24638015, 344.49745382};\n"
        "constexpr double bs[] = {-2.65734562, 15.96509799, -20.69040836, 73.61029937};\n"
        "double x = std::clamp(double(v), -4000.0, 4000.0);\n");
    REQUIRE(sf151);
    CHECK(sf151->display == model::DisplayRule{361, 4000});
    // Stockfish 12: 100 v / PawnValueEg, displayed by PawnValueEg.
    auto sf12 = model::parse_stockfish_model(
        "double m = std::min(240, ply) / 64.0;\n"
        "double as[] = {-8.24404295, 64.23892342, -95.73056462, 153.86478679};\n"
        "double bs[] = {-3.37154371, 28.44489198, -56.67657741, 72.05858751};\n"
        "double x = Utility::clamp(double(100 * v) / PawnValueEg, -1000.0, 1000.0);\n");
    REQUIRE(sf12);
    CHECK(sf12->display == model::DisplayRule{208, 1000});
    CHECK(sf12->eval_scale == 2.08);
    // Stockfish 17 on: 100 v / a(material), no clamp.
    auto sf17 = model::parse_stockfish_model(
        "double m = std::clamp(material, 17, 78) / 58.0;\n"
        "constexpr double as[] = {-37.45051876, 121.19101539, -132.78783573, 420.70576692};\n"
        "constexpr double bs[] = {90.26261072, -137.26549898, 71.10130540, 51.35259597};\n");
    REQUIRE(sf17);
    CHECK(sf17->display == model::DisplayRule{});
}
