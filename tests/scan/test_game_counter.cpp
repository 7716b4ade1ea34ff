#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "wdl/counts/position_key.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/scan/game_counter.hpp"

using namespace wdl;
using namespace wdl::scan;

namespace {

struct Counted {
    std::map<std::string, std::uint64_t> keys;  // "('W', 1, 78, 30)" -> count
    GameTally tally;
};

Counted count_games(const std::string& pgn, const CountingRules& rules = {}) {
    counts::PositionCounts counts;
    GameCounter counter(rules, counts);
    counter.read(pgn);
    Counted counted{{}, counter.tally()};
    counts.plain.for_each([&](std::uint64_t key, std::uint64_t count) {
        counted.keys[wdl::counts::format_key(wdl::counts::unpack_key(key))] += count;
    });
    return counted;
}

std::string game(const std::string& tags, const std::string& moves,
                 const std::string& result = "1-0") {
    return "[White \"New-x\"]\n[Black \"Base-y\"]\n[Result \"" + result + "\"]\n" + tags + "\n" +
           moves + " " + result + "\n\n";
}

const std::string kFourMoves =
    "1. e4 {+0.30/10 0.1s} e5 {-0.25/10 0.1s} 2. Nf3 {+0.31/10 0.1s} Nc6 {-0.33/10 0.1s}";

}  // namespace

TEST_CASE("each excluded termination drops the game, the others count", "[scan][counter]") {
    for (const char* termination :
         {"time forfeit", "abandoned", "stalled connection", "illegal move", "unterminated"}) {
        INFO(termination);
        auto counted =
            count_games(game("[Termination \"" + std::string(termination) + "\"]\n", kFourMoves));
        CHECK(counted.keys.empty());
        CHECK(counted.tally.skipped[std::size_t(games::GameSkipReason::BadTermination)] == 1);
        // Of the excluded terminations only a time forfeit is a loss on time.
        CHECK(counted.tally.time_forfeits == (std::string(termination) == "time forfeit"));
        CHECK(counted.tally.adjudicated == 0);
    }
    auto adjudicated = count_games(game("[Termination \"adjudication\"]\n", kFourMoves));
    CHECK(adjudicated.tally.positions == 4);
    CHECK(adjudicated.tally.adjudicated == 1);
    CHECK(adjudicated.tally.time_forfeits == 0);
    // Without case, by prefix; a game without Termination is neither.
    CHECK(count_games(game("[Termination \"Adjudication: TB\"]\n", kFourMoves)).tally.adjudicated ==
          1);
    CHECK(count_games(game("[Termination \"Time forfeit\"]\n", kFourMoves)).tally.time_forfeits ==
          1);
    auto untagged = count_games(game("", kFourMoves));
    CHECK(untagged.tally.adjudicated + untagged.tally.time_forfeits == 0);
}

TEST_CASE("positions after full move 200 are not counted, but the moves are read",
          "[scan][counter]") {
    // Knights shuffle from move 199 on; the game must still be read to its result.
    std::string moves;
    for (int move = 199; move <= 202; ++move) {
        bool out = move % 2;
        moves += std::to_string(move) + ". " + (out ? "Nf3" : "Ng1") + " {+0.10/5} " +
                 (out ? "Nf6" : "Ng8") + " {-0.10/5} ";
    }
    auto counted =
        count_games(game("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 199\"]\n",
                         moves, "1/2-1/2"));
    CHECK(counted.tally.games_accepted == 1);
    CHECK(counted.tally.positions == 4);  // moves 199 and 200, both sides
    CHECK(counted.keys.count("('D', 200, 78, 10)") == 1);
    CHECK(counted.keys.count("('D', 201, 78, 10)") == 0);
}

TEST_CASE("the engine filter counts the matching side, or none when a name is missing",
          "[scan][counter]") {
    RE2 new_engine("New-.*");
    CountingRules rules;
    rules.engine_filter = &new_engine;
    auto white_only = count_games(game("", kFourMoves), rules);
    CHECK(white_only.keys ==
          std::map<std::string, std::uint64_t>{{"('W', 1, 78, 30)", 1}, {"('W', 2, 78, 30)", 1}});

    auto both = count_games(
        "[White \"New-1\"]\n[Black \"New-2\"]\n[Result \"1-0\"]\n\n" + kFourMoves + " 1-0\n\n",
        rules);
    CHECK(both.tally.positions == 4);

    auto nameless =
        count_games("[White \"New-1\"]\n[Result \"1-0\"]\n\n" + kFourMoves + " 1-0\n\n", rules);
    CHECK(nameless.tally.positions == 0);
    CHECK(nameless.tally.games_accepted == 1);
}

TEST_CASE("Variant Chess960 and fischerandom both enable Chess960 castling", "[scan][counter]") {
    // Shredder-FEN castling rights on the h and a files, king on b1/b8: only Chess960 rules
    // allow these castlings.
    const std::string fen = "[FEN \"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n";
    const std::string moves = "1. O-O {+0.10/5} O-O-O {-0.10/5} 2. Rfe1 {+0.10/5} Rde8 {-0.10/5}";
    for (const char* variant : {"Chess960", "fischerandom"}) {
        INFO(variant);
        auto counted = count_games(
            game(fen + "[Variant \"" + std::string(variant) + "\"]\n", moves, "1/2-1/2"));
        CHECK(counted.tally.games_accepted == 1);
        CHECK(counted.tally.positions == 4);
    }
    CHECK(count_games(game(fen, moves, "1/2-1/2")).tally.games_accepted == 0);
}

TEST_CASE("a lichess eval counts for the position after the move, for its side to move",
          "[scan][counter]") {
    auto counted = count_games(
        game("", "1. e4 { [%eval 0.30] [%clk 0:03:00] } e5 { [%eval #-3] } 2. Nf3 { [%eval -0.5] }",
             "0-1"));
    // After 1. e4 Black moves at full move 1: White's +0.30 is -30 for Black, who won.
    CHECK(counted.keys == std::map<std::string, std::uint64_t>{{"('W', 1, 78, -30)", 1},
                                                               {"('L', 2, 78, -1001)", 1},
                                                               {"('W', 2, 78, 50)", 1}});
}

TEST_CASE("a tag section without moves is a game skipped for it, not merged into the next",
          "[scan][counter]") {
    // A headers-only section whose Termination would drop the next game if it leaked into it.
    std::string headers =
        "[White \"New-x\"]\n[Black \"Base-y\"]\n[Result \"1-0\"]\n"
        "[Termination \"abandoned\"]\n\n";
    std::string headers_ok = "[White \"New-x\"]\n[Black \"Base-y\"]\n[Result \"1-0\"]\n\n";
    auto counted = count_games(headers + headers_ok + game("", kFourMoves));
    CHECK(counted.tally.games_read == 3);
    CHECK(counted.tally.games_accepted == 1);
    CHECK(counted.tally.positions == 4);
    CHECK(counted.tally.skipped[std::size_t(games::GameSkipReason::BadTermination)] == 1);
    CHECK(counted.tally.skipped[std::size_t(games::GameSkipReason::NoMoves)] == 1);
    CHECK(counted.tally.skipped[std::size_t(games::GameSkipReason::Incomplete)] == 0);
}

TEST_CASE("comments with a number but no score count no position and are counted",
          "[scan][counter]") {
    std::string moves = "1. e4 {12/17 41 40000} e5 {436 13/19 583 363004} 2. Nf3 {+0.31/10 0.1s}";
    auto exact = count_games(game("", moves));
    CHECK(exact.tally.positions == 1);
    CHECK(exact.tally.scoreless_comments == 2);
    CountingRules legacy;
    legacy.eval_parsing = games::EvalParsing::Legacy;
    auto original = count_games(game("", moves), legacy);
    CHECK(original.tally.positions == 3);
    CHECK(original.tally.scoreless_comments == 0);
}

TEST_CASE("terminations match without case and by prefix, in legacy mode with the original letter",
          "[scan][counter]") {
    CountingRules legacy;
    legacy.eval_parsing = games::EvalParsing::Legacy;
    for (const char* termination : {"Time forfeit", "Abandoned", "Time Forfeit",
                                    "Illegal Move (c7c5)", "STALLED CONNECTION", "unterminated"}) {
        INFO(termination);
        auto pgn = game("[Termination \"" + std::string(termination) + "\"]\n", kFourMoves);
        auto exact = count_games(pgn);
        CHECK(exact.tally.positions == 0);
        CHECK(exact.tally.skipped[std::size_t(games::GameSkipReason::BadTermination)] == 1);
        bool original_letter = std::string(termination) == "unterminated";
        CHECK(count_games(pgn, legacy).tally.positions == (original_letter ? 0u : 4u));
    }
    CHECK(count_games(game("[Termination \"Normal\"]\n", kFourMoves)).tally.positions == 4);
}

TEST_CASE("games of other variants are skipped by name, Chess960 and standard ones played",
          "[scan][counter]") {
    for (const char* variant : {"Crazyhouse", "Antichess", "atomic"}) {
        INFO(variant);
        auto counted =
            count_games(game("[Variant \"" + std::string(variant) + "\"]\n", kFourMoves));
        CHECK(counted.tally.positions == 0);
        CHECK(counted.tally.skipped[std::size_t(games::GameSkipReason::UnsupportedVariant)] == 1);
        CHECK(counted.tally.skipped[std::size_t(games::GameSkipReason::IllegalMove)] == 0);
    }
    for (const char* variant : {"Standard", "From Position", "Chess960"}) {
        INFO(variant);
        CHECK(count_games(game("[Variant \"" + std::string(variant) + "\"]\n", kFourMoves))
                  .tally.positions == 4);
    }
}
