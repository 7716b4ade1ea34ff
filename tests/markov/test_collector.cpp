#include <catch2/catch.hpp>
#include <string>

#include "wdl/markov/collector.hpp"
#include "wdl/markov/results.hpp"

using namespace wdl::markov;

namespace {

struct Reading {
    CollectedGames games;
    std::vector<wdl::games::GameProblem> problems;
};

Reading read(const std::string& text, TransitionMode mode = TransitionMode::Own,
             const std::string& test = "") {
    static const ClassScheme classes = ClassScheme::log19();
    CollectorSettings settings;
    settings.classes = &classes;
    settings.mode = mode;
    std::vector<wdl::games::PairedGameFile> files{{"games.pgn", test, {}, {}}};
    ChainCollector collector(settings, files);
    collector.begin_chunk(0);
    collector.read(text);
    return {std::move(collector.collected()), collector.problems().listed()};
}

// Transitions of a role with a colour from one class to another, over both folds.
std::uint64_t moves(const PairingTally& pairing, int role, int colour, int from, int to) {
    std::uint64_t total = 0;
    for (int fold = 0; fold < kFolds; ++fold)
        total += pairing.moves[role][colour][fold].transitions[std::size_t(from * 19 + to)];
    return total;
}

std::uint64_t all_moves(const PairingTally& pairing) {
    std::uint64_t total = 0;
    for (const auto& by_colour : pairing.moves)
        for (const auto& by_fold : by_colour)
            for (const auto& tally : by_fold)
                for (auto count : tally.transitions) total += count;
    return total;
}

DropTally drops(const PairingTally& pairing, int role, int colour, int from) {
    DropTally total;
    for (int fold = 0; fold < kFolds; ++fold)
        total.merge(pairing.moves[role][colour][fold].drops[std::size_t(from)]);
    return total;
}

const std::string kNewWhite =
    "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"1-0\"]\n\n"
    "1. e4 {book} e5 {book} 2. Nf3 {+0.30/10 0.1s} Nc6 {-0.50/9 0.1s} 3. Bb5 {+2.50/8} "
    "a6 {-3.00/8} 4. Ba4 {+M5/8} 1-0\n\n";
const std::string kBaseWhite =
    "[White \"Base-bbb\"]\n[Black \"New-aaa\"]\n[Result \"1/2-1/2\"]\n\n"
    "1. e4 {book} e5 {book} 2. Nf3 {0.00/10} Nc6 {0.00/9} 1/2-1/2\n\n";

}  // namespace

TEST_CASE("a move goes from the mover's eval to the opponent's next eval in the mover's view",
          "[markov][collector]") {
    auto reading = read(kNewWhite);
    REQUIRE(reading.games.pairings.size() == 1);
    const auto& pairing = reading.games.pairings.begin()->second;
    CHECK(pairing.names[kNew] == "New-aaa");
    CHECK(pairing.names[kBase] == "Base-bbb");
    // log19 classes: 0.30 -> 12, 0.50 -> 13, -0.50 -> 5, beyond +-2.00 -> 18 / 0, mates extreme.
    CHECK(moves(pairing, kNew, 0, 12, 13) == 1);
    CHECK(moves(pairing, kBase, 1, 5, 0) == 1);
    CHECK(moves(pairing, kNew, 0, 18, 18) == 1);
    CHECK(moves(pairing, kBase, 1, 0, 0) == 1);
    CHECK(all_moves(pairing) == 4);
    // drop = own eval + the opponent's next eval (its negation in the mover's view).
    auto new_drops = drops(pairing, kNew, 0, 12);
    CHECK(new_drops.moves == 1);
    CHECK(new_drops.at_most_0 == 1);
    auto base_drops = drops(pairing, kBase, 1, 5);
    CHECK(base_drops.moves == 1);
    CHECK(base_drops.at_most_30 == 0);
    CHECK(base_drops.positive_sum == 200);
    CHECK(drops(pairing, kBase, 1, 0).positive_sum == 701);  // -3.00 then the mate (+1001)
    // The chain starts at the first evaluated position, in White's view.
    std::uint64_t starts = 0;
    for (const auto& fold : pairing.start_classes) starts += fold[12];
    CHECK(starts == 1);
    REQUIRE(pairing.games.size() == 1);
    CHECK(pairing.games[0].new_white);
    CHECK(pairing.games[0].new_score_halves == 2);
}

TEST_CASE("the opponent mode judges a move by the opponent's evals before and after it",
          "[markov][collector]") {
    auto reading = read(kNewWhite, TransitionMode::Opponent);
    const auto& pairing = reading.games.pairings.begin()->second;
    CHECK(moves(pairing, kBase, 1, 6, 0) == 1);   // from -(+0.30) to -(+2.50)
    CHECK(moves(pairing, kNew, 0, 13, 18) == 1);  // from -(-0.50) to -(-3.00)
    CHECK(moves(pairing, kBase, 1, 0, 0) == 1);
    CHECK(all_moves(pairing) == 3);  // the first evaluated move has no previous opponent eval
}

TEST_CASE("both colours of an opening share its hash and so its fold", "[markov][collector]") {
    auto reading = read(kNewWhite + kBaseWhite);
    const auto& pairing = reading.games.pairings.begin()->second;
    REQUIRE(pairing.games.size() == 2);
    CHECK(pairing.games[0].opening == pairing.games[1].opening);
    CHECK_FALSE(pairing.games[1].new_white);
    CHECK(pairing.games[1].new_score_halves == 1);
    // Other book moves or another start position are another opening.
    std::string other_book = kBaseWhite;
    other_book.replace(other_book.find("e5 {book}"), 9, "c5 {book}");
    auto other = read(kNewWhite + other_book);
    const auto& games = other.games.pairings.begin()->second.games;
    CHECK(games[0].opening != games[1].opening);
}

TEST_CASE("lichess evals describe the position after the move", "[markov][collector]") {
    auto reading = read(
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n"
        "1. e4 { [%eval 0.2] } e5 { [%eval 0.3] } 2. Nf3 { [%eval #-3] } 0-1\n\n");
    REQUIRE(reading.games.pairings.size() == 1);
    const auto& pairing = reading.games.pairings.begin()->second;
    // Without fishtest names the sorted first name is "New".
    CHECK(pairing.names[kNew] == "A");
    CHECK(moves(pairing, kBase, 1, 7, 6) == 1);  // Black: -0.20 to -0.30, its view
    CHECK(moves(pairing, kNew, 0, 12, 0) == 1);  // White: 0.30 to mated
    CHECK(all_moves(pairing) == 2);
    CHECK(pairing.games[0].new_score_halves == 0);
}

TEST_CASE("broken games are skipped with a reason and the others kept", "[markov][collector]") {
    std::string text =
        kNewWhite +
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"1-0\"]\n\n1. e4 {+0.2/9} e5 "
        "{-0.2/9} 2. Qxh8 {+1.00/5} 1-0\n\n"
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n\n1. e4 {+0.2/9} e5 {-0.2/9} *\n\n"
        "[White \"New-aaa\"]\n[Black \"New-aaa\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n"
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"1-0\"]\n\n1. e4 {+0.2/9} e5";
    auto reading = read(text);
    CHECK(reading.games.games_read == 6);
    CHECK(reading.games.games_accepted == 2);
    CHECK(reading.games.games_without_transitions == 1);
    CHECK(reading.games.skipped["illegal or unreadable move"] == 1);
    CHECK(reading.games.skipped["no decisive or drawn result"] == 1);
    CHECK(reading.games.skipped["players not the pairing's two engines"] == 1);
    CHECK(reading.games.skipped["incomplete game"] == 1);
    REQUIRE(reading.problems.size() == 3);
    CHECK(reading.problems[0].game_index == 1);
    CHECK_THAT(reading.problems[0].description, Catch::Contains("cannot play move \"Qxh8\""));
    CHECK_THAT(reading.problems[1].description, Catch::Contains("are not two different engines"));
    CHECK_THAT(reading.problems[2].description, Catch::Contains("without a result"));
    // The good game's moves are all there.
    CHECK(all_moves(reading.games.pairings.begin()->second) == 4);
}

TEST_CASE("a game of a variant we do not play is skipped with a warning, as every reader does",
          "[markov][collector]") {
    auto reading = read(
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"1-0\"]\n"
        "[Variant \"crazyhouse\"]\n\n1. e4 {+0.2/9} e5 {-0.2/9} 1-0\n\n" +
        kNewWhite);
    CHECK(reading.games.games_read == 2);
    CHECK(reading.games.games_accepted == 1);
    CHECK(reading.games.skipped["unsupported variant"] == 1);
    REQUIRE(reading.problems.size() == 1);
    CHECK(reading.problems[0].game_index == 0);
    CHECK(reading.problems[0].description == "unsupported variant \"crazyhouse\"");
}

TEST_CASE("a pairing whose every game is broken counts in the score only", "[markov][collector]") {
    auto reading = read(
        "[White \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n\n1. e4 {+0.2/9} Ke7 {-0.2/9} 1-0\n\n" +
        kNewWhite);
    REQUIRE(reading.games.pairings.size() == 2);
    static const ClassScheme classes = ClassScheme::log19();
    AnalysisSettings settings;
    wdl::model::WdlModel model;
    model.as = {0, 0, 0, 100};
    model.bs = {0, 0, 0, 50};
    settings.model.emplace(model, std::nullopt, "a test model");
    auto results = analyse(reading.games, classes, settings);
    REQUIRE(results.pairings.size() == 2);
    const auto& broken = results.pairings[1];
    CHECK(broken.names[kNew] == "X");
    CHECK(broken.actual.games == 1);
    CHECK(broken.games_outside_chains == 1);
    CHECK_FALSE(broken.evaluated);
    CHECK(results.pairings[0].names[kNew] == "New-aaa");
    CHECK(results.pairings[0].games_outside_chains == 0);
}

TEST_CASE("a test's two engines pair whatever their names, its metadata saying which is new",
          "[markov][collector]") {
    static const ClassScheme classes = ClassScheme::log19();
    CollectorSettings settings;
    settings.classes = &classes;
    // An engine renamed by its author (Fish-...) against fishtest's Base-...: the metadata's
    // revisions tell the roles.
    std::vector<wdl::games::PairedGameFile> files{
        {"t.pgn", "abc123", "New-1234567890abcdef", "Base-fedcba0987654321"}};
    std::string text =
        "[White \"Base-fedcba0987\"]\n[Black \"Fish-1234567890\"]\n[Result \"0-1\"]\n\n"
        "1. e4 {+0.2/9} e5 {-0.2/9} 0-1\n\n"
        "[White \"Fish-1234567890\"]\n[Black \"Base-fedcba0987\"]\n[Result \"1/2-1/2\"]\n\n"
        "1. d4 {+0.2/9} d5 {-0.2/9} 1/2-1/2\n\n";
    ChainCollector collector(settings, files);
    collector.begin_chunk(0);
    collector.read(text);
    CHECK(collector.collected().games_accepted == 2);
    CHECK(collector.problems().listed().empty());
    const auto& pairing = collector.collected().pairings.at("test abc123");
    CHECK(pairing.names[kNew] == "New-1234567890abcdef");
    CHECK(pairing.names[kBase] == "Base-fedcba0987654321");
    REQUIRE(pairing.games.size() == 2);
    CHECK(pairing.games[0].new_score_halves == 2);  // Fish won with Black
    CHECK_FALSE(pairing.games[0].new_white);
    CHECK(pairing.games[1].new_score_halves == 1);
    CHECK(pairing.games[1].new_white);
}

TEST_CASE("the score counts every game with a result, as fishtest counts a test",
          "[markov][collector]") {
    // A time loss, an illegal move and a cut game count in the score; a game without a result
    // does not.
    std::string text =
        kNewWhite +
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"0-1\"]\n[Termination \"time "
        "forfeit\"]\n\n1. e4 {+0.2/9} e5 {-0.2/9} 0-1\n\n"
        "[White \"Base-bbb\"]\n[Black \"New-aaa\"]\n[Result \"1-0\"]\n\n1. e4 {+0.2/9} e5 "
        "{-0.2/9} 2. Qxh8 {+1.00/5} 1-0\n\n"
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n"
        "[White \"New-aaa\"]\n[Black \"Base-bbb\"]\n[Result \"1/2-1/2\"]\n\n1. e4 {+0.2/9} e5";
    auto reading = read(text);
    CHECK(reading.games.games_accepted == 1);
    const auto& pairing = reading.games.pairings.begin()->second;
    REQUIRE(pairing.games.size() == 4);
    CHECK(pairing.games_outside_chains == 3);
    unsigned halves = 0;
    for (const auto& game : pairing.games) halves += game.new_score_halves;
    CHECK(halves == 2 + 0 + 0 + 1);  // win, time loss, loss (New Black), draw
}
