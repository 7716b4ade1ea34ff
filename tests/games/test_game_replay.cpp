#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "wdl/games/game_replay.hpp"

using namespace wdl;
using games::EvalComment;
using games::GameReplay;
using games::GameSkipReason;

namespace {

// Writes down every hook the replay calls, in order.
struct Recorder {
    std::vector<std::string> events;
    games::TagVerdict verdict;  // what accept answers

    void begin_game(std::size_t offset) { events.push_back("begin " + std::to_string(offset)); }
    games::TagVerdict accept(const games::GameTags& tags) {
        events.push_back("accept " + tags.white + " " + tags.black);
        return verdict;
    }
    void start_game(const chess::Board& board) { events.push_back("start " + board.fen()); }
    void see_move(const chess::Board& board, const games::ReplayedMove& move) {
        events.push_back("move " + std::to_string(move.ply) + " " + std::string(move.san) + " by " +
                         (board.side_to_move() == chess::Color::White ? "w" : "b") + " {" +
                         std::string(move.comment) + "}");
    }
    void see_position(const chess::Board& board, int eval, int plies, EvalComment comment) {
        events.push_back("eval " + std::to_string(eval) + " after " + std::to_string(plies) +
                         (comment == EvalComment::OfMoveFrom ? " from " : " to ") +
                         (board.side_to_move() == chess::Color::White ? "w" : "b"));
    }
    void skip_game(GameSkipReason reason) {
        events.push_back(std::string("skip ") + games::describe(reason));
    }
    void finish_game(const chess::Board& board) { events.push_back("finish " + board.fen()); }
};

// The required hooks only: the replay reads no eval for it.
struct Finisher {
    int finished = 0, skipped = 0;
    void begin_game(std::size_t) {}
    games::TagVerdict accept(const games::GameTags&) { return {}; }
    void skip_game(GameSkipReason) { ++skipped; }
    void finish_game(const chess::Board&) { ++finished; }
};

struct Replayed {
    std::vector<std::string> events;
    std::vector<games::GameProblem> problems;
    std::uint64_t games = 0;
};

Replayed replay(const std::string& pgn, games::ReplayRules rules = {},
                games::TagVerdict verdict = {}) {
    Recorder recorder;
    recorder.verdict = std::move(verdict);
    GameReplay replay(rules, recorder);
    replay.begin_chunk();
    pgn::read_games(pgn, replay);
    return {recorder.events, replay.problems().listed(), replay.games()};
}

const std::string kTags = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n";
const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace

TEST_CASE("an engine's comment scores the position before its move, lichess's the one after",
          "[games][replay]") {
    auto replayed = replay(kTags + "1. e4 {+0.30/10 0.1s} e5 {[%eval 0.25]} 2. Nf3 {book} 1-0\n");
    std::vector<std::string> expected = {
        "begin 0",
        "accept A B",
        "start " + kStart,
        "eval 30 after 0 from w",  // White's own score, before 1. e4
        "move 1 e4 by w {+0.30/10 0.1s}",
        "move 2 e5 by b {[%eval 0.25]}",
        "eval 25 after 2 to w",  // lichess: White's view, after 1... e5, White to move
        "move 3 Nf3 by w {book}",
        "finish rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    };
    CHECK(replayed.events == expected);
    CHECK(replayed.problems.empty());
    CHECK(replayed.games == 1);
}

TEST_CASE("a lichess eval after Black's move is turned to the view of White, to move",
          "[games][replay]") {
    // After 1. e4 Black is to move: White's +0.40 is -40 for the mover.
    auto replayed = replay(kTags + "1. e4 {[%eval 0.4]} 1-0\n");
    CHECK(std::find(replayed.events.begin(), replayed.events.end(), "eval -40 after 1 to b") !=
          replayed.events.end());
}

TEST_CASE("a move that cannot be played drops the game with one warning", "[games][replay]") {
    auto replayed = replay(kTags + "1. e4 e5 2. Qh9 Nc6 1-0\n\n" + kTags + "1. d4 1-0\n");
    REQUIRE(replayed.problems.size() == 1);
    CHECK(replayed.problems[0].game_index == 0);
    CHECK(replayed.problems[0].description == "cannot play move \"Qh9\" at ply 3");
    // No move after the broken one, no finish; the next game is read whole.
    std::vector<std::string> first(replayed.events.begin(), replayed.events.begin() + 6);
    CHECK(first.back() == "skip illegal or unreadable move");
    CHECK(replayed.events.back().starts_with("finish "));
    CHECK(replayed.games == 2);
}

TEST_CASE("an invalid FEN drops the game before any move", "[games][replay]") {
    auto replayed = replay(
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[FEN \"8/8/8 w\"]\n"
        "[SetUp \"1\"]\n\n1. e4 1-0\n");
    CHECK(replayed.events == std::vector<std::string>{"begin 0", "accept A B", "skip invalid FEN"});
    REQUIRE(replayed.problems.size() == 1);
    CHECK(replayed.problems[0].description == "invalid FEN \"8/8/8 w\"");
}

TEST_CASE("the analysis decides on the tags, with a warning only for a broken record",
          "[games][replay]") {
    auto rejected = replay(kTags + "1. e4 1-0\n", {}, {false, ""});
    CHECK(rejected.events == std::vector<std::string>{"begin 0", "accept A B"});
    CHECK(rejected.problems.empty());
    auto broken = replay(kTags + "1. e4 1-0\n", {}, {false, "unsupported variant \"x\""});
    REQUIRE(broken.problems.size() == 1);
    CHECK(broken.problems[0].description == "unsupported variant \"x\"");
    games::GameTags tags;
    tags.read("Variant", "crazyhouse");
    REQUIRE(tags.rejection() == GameSkipReason::UnsupportedVariant);
    CHECK(games::rejection_warning(tags, GameSkipReason::UnsupportedVariant) ==
          "unsupported variant \"crazyhouse\"");
    tags.clear();
    CHECK(games::rejection_warning(tags, GameSkipReason::NoResult).empty());
}

TEST_CASE("a game cut short is broken, unless the rules keep unterminated games",
          "[games][replay]") {
    std::string cut = kTags + "1. e4 e5 2. Nf3";
    auto dropped = replay(cut);
    CHECK(dropped.events.back() == "skip incomplete game");
    REQUIRE(dropped.problems.size() == 1);
    CHECK(dropped.problems[0].description == "game ends without a result (truncated?)");

    games::ReplayRules keep;
    keep.finish_unterminated = true;
    auto kept = replay(cut, keep);
    CHECK(kept.events.back().starts_with("finish "));
    CHECK(kept.problems.empty());

    // A tag section without moves.
    auto no_moves = replay(kTags + "\n");
    CHECK(no_moves.events.back() == "skip no moves");
    REQUIRE(no_moves.problems.size() == 1);
    CHECK(no_moves.problems[0].description == "game has tags but no moves");
}

TEST_CASE("games and problems are numbered from the chunk's start", "[games][replay]") {
    Recorder recorder;
    games::ReplayRules rules;
    GameReplay replay(rules, recorder);
    replay.begin_chunk();
    pgn::read_games(kTags + "1. e4 1-0\n\n" + kTags + "1. Ke3 1-0\n", replay);
    CHECK(replay.games() == 2);
    REQUIRE(replay.problems().listed().size() == 1);
    CHECK(replay.problems().listed()[0].game_index == 1);
    replay.begin_chunk();
    pgn::read_games(kTags + "1. Ke3 1-0\n", replay);
    CHECK(replay.games() == 1);
    REQUIRE(replay.problems().listed().size() == 1);
    CHECK(replay.problems().listed()[0].game_index == 0);
}

TEST_CASE("an analysis with only the required hooks is replayed", "[games][replay]") {
    Finisher finisher;
    games::ReplayRules rules;
    GameReplay replay(rules, finisher);
    pgn::read_games(kTags + "1. e4 {+0.3/1} 1-0\n\n" + kTags + "1. e4 Ke7 2. Kxe7 1-0\n", replay);
    CHECK(finisher.finished == 1);
    CHECK(finisher.skipped == 1);
}

TEST_CASE("the legacy parsing matches Termination exactly, as the original", "[games][replay]") {
    std::string game =
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
        "[Termination \"Time forfeit\"]\n\n1. e4 1-0\n";
    struct TerminationCheck : Recorder {
        games::TagVerdict accept(const games::GameTags& tags) {
            events.push_back(tags.rejection() ? "rejected" : "accepted");
            return {false, ""};
        }
    };
    for (auto [parsing, expected] : {std::pair{games::EvalParsing::Exact, "rejected"},
                                     std::pair{games::EvalParsing::Legacy, "accepted"}}) {
        TerminationCheck check;
        games::ReplayRules rules;
        rules.eval_parsing = parsing;
        GameReplay replay(rules, check);
        pgn::read_games(game, replay);
        CHECK(check.events.back() == expected);
    }
}
