// GCC 12 warns falsely inside libstdc++'s <regex> when built with ASan.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <catch2/catch.hpp>
#include <regex>
#include <string>

#include "test_data.hpp"
#include "wdl/annotate/annotator.hpp"
#include "wdl/model/normalization.hpp"

using namespace wdl;
using namespace wdl::annotate;

namespace {

// A model with the same a = 100 and b = 50 at every material, evals displayed as internal.
ExpectedScore flat_expected_score(ScoreFunction function = ScoreFunction::Model) {
    model::WdlModel flat;
    flat.as = {0, 0, 0, 100};
    flat.bs = {0, 0, 0, 50};
    return ExpectedScore(flat, model::Normalization::fixed(100), function);
}

struct Annotated {
    std::string text;
    AnnotationSummary summary;
};

Annotated annotated(const std::string& pgn, const AnnotateSettings& settings = {}) {
    Annotated result;
    annotate_games(pgn, flat_expected_score(), settings, result.text, result.summary);
    return result;
}

// The text without what annotate_games adds.
std::string stripped(const std::string& text) {
    static const std::regex added(R"( \$\d+| \[%wdl \d+,\d+,\d+\]| \{\[%wdl \d+,\d+,\d+\]\})");
    return std::regex_replace(text, added, "");
}

const std::string kTags = "[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n";

}  // namespace

TEST_CASE("engine evals: the mover's eval before the move, its opponent's after it", "[annotate]") {
    // White thinks +0.50; Black answers thinking itself +1.50: White's e4 lost a lot.
    // Black's e5 is judged against White's next eval, -1.50 for White: no loss.
    auto result = annotated(kTags + "1. e4 {+0.50/10} e5 {+1.50/10} 2. Nf3 {-1.50/10} 1-0\n");
    auto expected = flat_expected_score();
    double drop = expected.score(50, {1, 78, false}) - (1 - expected.score(150, {1, 78, true}));
    REQUIRE(drop >= 0.20);
    // e4: ?? then the position after it, from White's +0.50.
    int white_nag = position_nag(expected.score(50, {1, 78, false}), PositionScheme::Konrod9);
    CHECK_THAT(result.text, Catch::Contains("1. e4 $4 $" + std::to_string(white_nag) + " {"));
    // e5 by Black: its +1.50 is White's -1.50: a symbol for Black, no move symbol.
    int black_nag = position_nag(1 - expected.score(150, {1, 78, true}), PositionScheme::Konrod9);
    CHECK(black_nag % 2 == 1);
    CHECK_THAT(result.text, Catch::Contains("e5 $" + std::to_string(black_nag) + " {"));
    CHECK(result.summary.players["W"].nags[2] == 1);
    CHECK(result.summary.players["B"].moves == 1);
    CHECK(result.summary.players["B"].nags == std::array<std::uint64_t, 3>{0, 0, 0});
}

TEST_CASE("Black's error is seen from Black's side", "[annotate]") {
    auto result =
        annotated(kTags + "1. e4 {+0.10/10} e5 {-0.10/10} 2. Nf3 {+2.50/10} Nc6 {-2.50/10} 1-0\n");
    // e5: Black expected S(-0.10), then White's +2.50 leaves it 1 - S(2.50): a blunder.
    CHECK_THAT(result.text, Catch::Contains("e5 $4 $"));
    CHECK(result.summary.players["B"].nags[2] == 1);
    CHECK(result.summary.players["W"].nags[2] == 0);
}

TEST_CASE("lichess evals are White's, after the move", "[annotate]") {
    // White's Qh5 takes White from +0.30 to -2.00: a blunder by White; Black's e5 kept +0.30.
    auto result = annotated(kTags +
                            "1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.3] } 2. Qh5 { [%eval -2.0] } "
                            "2... Nc6 { [%eval -2.0] } 1-0\n");
    CHECK_THAT(result.text, Catch::Contains("2. Qh5 $4 $"));
    CHECK_THAT(result.text, Catch::Contains("1... e5 $"));
    CHECK(result.summary.players["W"].nags[2] == 1);
    CHECK(result.summary.players["B"].nags[2] == 0);
    // The position after Qh5 is Black's: an odd NAG.
    auto expected = flat_expected_score();
    int nag = position_nag(expected.score(-200, {2, 77, true}), PositionScheme::Konrod9);
    CHECK(nag % 2 == 1);
}

TEST_CASE("a game without evals is copied unchanged, and a broken one too with a warning",
          "[annotate]") {
    std::string plain = kTags + "1. e4 e5 2. Nf3 {book} Nc6 1-0\n\n";
    std::string broken = kTags + "1. e4 {+0.10/3} e5 {-0.10/3} 2. Ke3 {+0.2/3} 1-0\n\n";
    std::string good = kTags + "1. d4 {+0.10/3} d5 {-0.20/3} 1-0\n";
    auto result = annotated(plain + broken + good);
    CHECK(result.text.substr(0, plain.size() + broken.size()) == plain + broken);
    CHECK(result.text.size() > plain.size() + broken.size() + good.size());
    CHECK(result.summary.games == 3);
    CHECK(result.summary.games_copied == 1);
    REQUIRE(result.summary.problems.listed().size() == 1);
    CHECK(result.summary.problems.listed()[0].game_index == 1);
    CHECK_THAT(result.summary.problems.listed()[0].description,
               Catch::Contains("cannot play move \"Ke3\""));
}

TEST_CASE("W/D/L comments go into the move's comment or a new one", "[annotate]") {
    AnnotateSettings settings;
    settings.wdl_comments = true;
    auto result = annotated(kTags + "1. e4 {+0.10/3} e5 { [%eval 0.2] } 1-0\n", settings);
    CHECK(std::regex_search(result.text, std::regex(R"(\{\+0\.10/3 \[%wdl \d+,\d+,\d+\]\})")));
    CHECK(
        std::regex_search(result.text, std::regex(R"(\{ \[%eval 0\.2\] \[%wdl \d+,\d+,\d+\] \})")));
    auto wdl = flat_expected_score().wdl_per_mille(10, {1, 78, false});
    CHECK(wdl[0] + wdl[1] + wdl[2] == 1000);
}

TEST_CASE("removing what was added gives the input bytes back", "[annotate]") {
    std::string pgn = testing::read_decompressed(
        testing::corpus_path("24-11-05/fada7bd8c58aff62bbd52188/fada7bd8c58aff62bbd52188.pgn.gz"));
    AnnotateSettings settings;
    settings.wdl_comments = true;
    auto result = annotated(pgn, settings);
    CHECK(result.summary.games == 80);
    CHECK(result.summary.position_symbols > 1000);
    CHECK(result.text.size() > pgn.size());
    CHECK(stripped(result.text) == pgn);
}

TEST_CASE("Konrod's expected score can replace the model's", "[annotate]") {
    auto konrod = flat_expected_score(ScoreFunction::Konrod);
    CHECK(konrod.score(100, {1, 58, false}) == Catch::Detail::Approx(0.75));  // x = x05 = a
    CHECK(konrod.score(0, {1, 58, false}) == 0.5);
    CHECK(konrod.score(1001, {1, 58, false}) == 1);
}

TEST_CASE("without a normalization, displayed evals are read by the model's display rule",
          "[annotate]") {
    // A ply model of Stockfish 15.1's era: a = 100 and b = 50, displayed as 100 v / 361 truncated.
    model::WdlModel era;
    era.as = {0, 0, 0, 100};
    era.bs = {0, 0, 0, 50};
    era.mom_type = model::MomType::Ply;
    era.display.pawn_divisor = 361;
    PositionPlace place{10, 40, true};
    // The middle of the evals printed as 1.00 is 100.5 * 3.61 = 362.8: the engine's 363.
    ExpectedScore by_rule(era, std::nullopt, ScoreFunction::Model);
    CHECK(by_rule.outlook(100, place).win == Approx(model::win_rate(363, 100, 50)));
    CHECK(by_rule.outlook(-2, place).loss == Approx(model::loss_rate(-9, 100, 50)));
    CHECK(by_rule.outlook(0, place).win == Approx(model::win_rate(0, 100, 50)));
    // Konrod's x_0_5 is the display's 361, not a = 100.
    ExpectedScore konrod(era, std::nullopt, ScoreFunction::Konrod);
    CHECK(konrod.konrod_x05(place) == 361);
    CHECK(konrod.score(100, place) == Approx(konrod_score(363, 361)));
    // A normalization given for the games overrides the model's rule: 1.00 is then 100 internal.
    ExpectedScore given(era, model::Normalization::fixed(100), ScoreFunction::Model);
    CHECK(given.outlook(100, place).win == Approx(model::win_rate(100, 100, 50)));
    // Since Stockfish 17 the display is 100 v / a(mom), rounded: 1.00 is a itself.
    model::WdlModel material;
    material.as = {0, 0, 0, 100};
    material.bs = {0, 0, 0, 50};
    ExpectedScore by_a(material, std::nullopt, ScoreFunction::Konrod);
    CHECK(by_a.konrod_x05(place) == Approx(100));
    CHECK(by_a.score(100, place) == Approx(0.75));
}
