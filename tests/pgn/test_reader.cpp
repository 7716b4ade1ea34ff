#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "wdl/pgn/reader.hpp"

namespace {

struct RecordedGame {
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<std::pair<std::string, std::string>> moves;  // san, comment
    bool terminated = false;
    std::size_t offset = 0;
};

// Records everything the reader reports; stops taking moves after `move_limit`, and takes
// none of games with a tag named `declining_tag`.
class RecordingVisitor : public wdl::pgn::Visitor {
  public:
    std::vector<RecordedGame> games;
    std::size_t move_limit = SIZE_MAX;
    std::string declining_tag = "-";

    void begin_game(std::size_t offset) override {
        games.emplace_back();
        games.back().offset = offset;
    }
    void tag(std::string_view name, std::string_view value) override {
        games.back().tags.emplace_back(name, value);
    }
    bool begin_movetext() override {
        for (const auto& [name, value] : games.back().tags)
            if (name == declining_tag) return false;
        return true;
    }
    bool move(std::string_view san, std::string_view comment) override {
        games.back().moves.emplace_back(san, comment);
        return games.back().moves.size() < move_limit;
    }
    void end_game(bool terminated) override { games.back().terminated = terminated; }
};

RecordingVisitor read(std::string_view text) {
    RecordingVisitor visitor;
    wdl::pgn::read_games(text, visitor);
    return visitor;
}

using Moves = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("tags, move numbers, comments and the result", "[pgn]") {
    auto v = read(
        "[Event \"Batch 1\"]\n[White \"New-abc\"]\n[Result \"1-0\"]\n\n"
        "1. e4 {+0.57/17 0.52s} e5 {  -0.50/16 0.40s} 2. Nf3 {book} 1-0\n");
    REQUIRE(v.games.size() == 1);
    const auto& game = v.games[0];
    CHECK(game.tags == Moves{{"Event", "Batch 1"}, {"White", "New-abc"}, {"Result", "1-0"}});
    CHECK(game.moves == Moves{{"e4", "+0.57/17 0.52s"}, {"e5", "-0.50/16 0.40s"}, {"Nf3", "book"}});
    CHECK(game.terminated);
}

TEST_CASE("black move numbers and moves glued to their number", "[pgn]") {
    auto v = read("[FEN \"x\"]\n\n1... d6 {a} 2.Bf4 {b} 2... Nc6 3.Qc2 0-1");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].moves == Moves{{"d6", "a"}, {"Bf4", "b"}, {"Nc6", ""}, {"Qc2", ""}});
}

TEST_CASE("semicolon comments, escape lines and NAGs", "[pgn]") {
    auto v = read(
        "% escape line [Event \"no\"]\n[Event \"e\"]\n\n1. e4 ; rest of line is a comment\n"
        "e5 $1 2. Nf3!? $14 Nc6?! {c} *\n");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].tags.size() == 1);
    CHECK(v.games[0].moves ==
          Moves{{"e4", "rest of line is a comment"}, {"e5", ""}, {"Nf3!?", ""}, {"Nc6?!", "c"}});
    CHECK(v.games[0].terminated);
}

TEST_CASE("variations are skipped, nested and with comments holding parentheses", "[pgn]") {
    auto v = read(
        "[Event \"e\"]\n\n1. e4 {main} (1. d4 d5 (1... Nf6 {a ( b}) 2. c4) 1... e5 (1... c5; x)\n"
        ") 2. Nf3 1/2-1/2");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].moves == Moves{{"e4", "main"}, {"e5", ""}, {"Nf3", ""}});
    CHECK(v.games[0].terminated);
}

TEST_CASE("CRLF line ends, a byte order mark and tag escapes", "[pgn]") {
    auto v = read("\xEF\xBB\xBF[Event \"a \\\"quoted\\\" \\\\ name\"]\r\n\r\n1. e4 {x}\r\n1-0\r\n");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].tags == Moves{{"Event", "a \"quoted\" \\ name"}});
    CHECK(v.games[0].moves == Moves{{"e4", "x"}});
}

TEST_CASE("games without tags and several games in a row", "[pgn]") {
    auto v = read("1. e4 e5 1-0\n\n1. d4 0-1\n[Event \"x\"]\n\n1. c4 *\n");
    REQUIRE(v.games.size() == 3);
    CHECK(v.games[0].tags.empty());
    CHECK(v.games[0].moves.size() == 2);
    CHECK(v.games[1].moves == Moves{{"d4", ""}});
    CHECK(v.games[2].tags.size() == 1);
    CHECK(v.games[2].moves == Moves{{"c4", ""}});
}

TEST_CASE("a game cut short is reported as not terminated", "[pgn]") {
    auto v = read(
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3\n[Event \"b\"]\n\n1. d4 d5 1-0\n[Event \"c\"]\n\n1. c4");
    REQUIRE(v.games.size() == 3);
    CHECK_FALSE(v.games[0].terminated);
    CHECK(v.games[0].moves.size() == 3);
    CHECK(v.games[1].terminated);
    CHECK_FALSE(v.games[2].terminated);
}

TEST_CASE("an unterminated comment or variation ends at the next tag section", "[pgn]") {
    auto v = read(
        "[Event \"a\"]\n\n1. e4 {broken comment\n[Event \"b\"]\n\n1. d4 (1. c4\n"
        "[Event \"c\"]\n\n1. Nf3 {ok} 1-0\n");
    REQUIRE(v.games.size() == 3);
    CHECK_FALSE(v.games[0].terminated);
    CHECK_FALSE(v.games[1].terminated);
    CHECK(v.games[2].moves == Moves{{"Nf3", "ok"}});
    CHECK(v.games[2].terminated);
}

TEST_CASE("a lichess-style comment with brackets is a comment", "[pgn]") {
    auto v = read("[Event \"a\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1-0");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].moves == Moves{{"e4", "[%eval 0.17] [%clk 0:03:00] "}});
}

TEST_CASE("a visitor can decline the rest of a game's moves", "[pgn]") {
    RecordingVisitor visitor;
    visitor.move_limit = 2;
    wdl::pgn::read_games("1. e4 e5 2. Nf3 Nc6 1-0\n1. d4 d5 2. c4 0-1", visitor);
    REQUIRE(visitor.games.size() == 2);
    CHECK(visitor.games[0].moves.size() == 2);
    CHECK(visitor.games[1].moves.size() == 2);
    CHECK(visitor.games[1].terminated);
}

TEST_CASE("a visitor can decline a game after its tags, and its end is still found", "[pgn]") {
    RecordingVisitor visitor;
    visitor.declining_tag = "Skip";
    wdl::pgn::read_games(
        "[Skip \"1\"]\n\n1. e4 {1-0 [White \"x\"]} (1. d4 0-1) e5 1/2-1/2\n\n"
        "[Event \"x\"]\n\n1. d4 d5 *\n\n[Skip \"1\"]\n\n1. c4 c5\n[Event \"y\"]\n1. Nf3 0-1",
        visitor);
    REQUIRE(visitor.games.size() == 4);
    CHECK(visitor.games[0].moves.empty());
    CHECK(visitor.games[0].terminated);
    CHECK(visitor.games[1].moves == Moves{{"d4", ""}, {"d5", ""}});
    CHECK(visitor.games[2].moves.empty());
    CHECK_FALSE(visitor.games[2].terminated);
    CHECK(visitor.games[3].moves == Moves{{"Nf3", ""}});
}

TEST_CASE("move numbers glued to their dots, to a comment or to the text's end", "[pgn]") {
    auto v = read("1.e4 2.{c} 2... e5 3.. Nf3 12.Nc3 4.\n123 4.");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].moves ==
          Moves{{"e4", "c"}, {"e5", ""}, {"Nf3", ""}, {"Nc3", ""}, {"123", ""}});
}

TEST_CASE("garbage never crashes or hangs the reader", "[pgn]") {
    std::mt19937 random(12345);
    const std::string alphabet = "[]{}()\";%$*.-/\n \r01eNxO=+#!?abcdefgh12345678\\";
    for (int round = 0; round < 2000; ++round) {
        std::string text(random() % 300, ' ');
        for (char& c : text)
            c = random() % 4 ? alphabet[random() % alphabet.size()] : char(random() % 256);
        RecordingVisitor visitor;
        wdl::pgn::read_games(text, visitor);
        for (const auto& game : visitor.games) CHECK(game.offset <= text.size());
    }
}

TEST_CASE("garbage between games does not lose the games around it", "[pgn]") {
    auto v = read(
        "[Event \"a\"]\n\n1. e4 1-0\n\n\x01\x02 }}) junk ((( {\n\n[Event \"b\"]\n\n1. d4 0-1\n");
    REQUIRE(v.games.size() == 3);
    CHECK(v.games[0].terminated);
    CHECK(v.games[2].tags == Moves{{"Event", "b"}});
    CHECK(v.games[2].moves == Moves{{"d4", ""}});
    CHECK(v.games[2].terminated);
}

TEST_CASE("the last game start is found for chunking", "[pgn]") {
    std::string text = "[Event \"a\"]\n[Site \"s\"]\n\n1. e4 {[%eval 1]}\n[%eval x]\n1-0\n\n";
    std::size_t second = text.size();
    text += "[Event \"b\"]\n[Site \"t\"]\n\n1. d4 0-1\n";
    CHECK(wdl::pgn::find_last_game_start(text) == second);
    CHECK(wdl::pgn::find_last_game_start(text, second) == std::string::npos);
    CHECK(wdl::pgn::find_last_game_start(text.substr(0, second)) == std::string::npos);
    CHECK(wdl::pgn::find_last_game_start("1. e4 1-0\n") == std::string::npos);
}

TEST_CASE("the next game start is found for a look at each game", "[pgn]") {
    // A comment's [%eval] at a line's start and a tag section's second line start no game.
    std::string text = "[Event \"a\"]\n[Site \"s\"]\n\n1. e4 {[%eval 1]}\n[%eval x]\n1-0\n\n";
    std::size_t second = text.size();
    text += "[Event \"b\"]\n[Site \"t\"]\n\n1. d4 0-1\n";
    CHECK(wdl::pgn::find_next_game_start(text, 0) == 0);
    for (std::size_t from = 1; from <= second; ++from) {
        INFO(from);
        CHECK(wdl::pgn::find_next_game_start(text, from) == second);
    }
    CHECK(wdl::pgn::find_next_game_start(text, second + 1) == std::string::npos);
    CHECK(wdl::pgn::find_next_game_start(text, text.size()) == std::string::npos);
    CHECK(wdl::pgn::find_next_game_start("1. e4 1-0\n", 0) == std::string::npos);
    // Where the reader begins its games: each one found in turn.
    std::vector<std::size_t> found;
    for (std::size_t at = 0; (at = wdl::pgn::find_next_game_start(text, at)) != std::string::npos;
         ++at)
        found.push_back(at);
    CHECK(found == std::vector<std::size_t>{0, second});
}

TEST_CASE("a tag section without movetext is a game of its own", "[pgn]") {
    // A file of headers: each section ends at its blank line; none leaks into the next game.
    auto v = read(
        "[Event \"only tags\"]\n[Termination \"abandoned\"]\n\n"
        "[Event \"also only tags\"]\n[Result \"1-0\"]\n\n"
        "[Event \"played\"]\n[Result \"0-1\"]\n\n1. e4 {+0.30/10} e5 0-1\n");
    REQUIRE(v.games.size() == 3);
    CHECK(v.games[0].tags == Moves{{"Event", "only tags"}, {"Termination", "abandoned"}});
    CHECK(v.games[0].moves.empty());
    CHECK_FALSE(v.games[0].terminated);
    CHECK(v.games[1].tags == Moves{{"Event", "also only tags"}, {"Result", "1-0"}});
    CHECK(v.games[2].tags == Moves{{"Event", "played"}, {"Result", "0-1"}});
    CHECK(v.games[2].moves == Moves{{"e4", "+0.30/10"}, {"e5", ""}});
    CHECK(v.games[2].terminated);
}

TEST_CASE("escape lines and indented tag lines stay inside a tag section", "[pgn]") {
    auto v =
        read("[Event \"e\"]\n% an escape line\n  [White \"w\"]\n\t[Result \"1-0\"]\n\n1. e4 1-0\n");
    REQUIRE(v.games.size() == 1);
    CHECK(v.games[0].tags == Moves{{"Event", "e"}, {"White", "w"}, {"Result", "1-0"}});
    CHECK(v.games[0].moves == Moves{{"e4", ""}});
}

namespace {

// What a reader reports, as text, for comparing readings.
std::string reading_of(std::string_view text) {
    std::string out;
    for (const auto& game : read(text).games) {
        for (const auto& [name, value] : game.tags) out += "[" + name + "=" + value + "]";
        for (const auto& [san, comment] : game.moves) out += " " + san + "{" + comment + "}";
        out += game.terminated ? " #\n" : " ...\n";
    }
    return out;
}

}  // namespace

TEST_CASE("a text cut where find_last_game_start says reads as the whole", "[pgn]") {
    // Tag sections with escape lines, indented tags, sections without moves, lichess comments
    // and games without tags: every cut the cutter proposes, in every prefix, must be a game
    // start of the reader.
    const std::string text =
        "[Event \"a\"]\n%escape\n[Site \"s\"]\n\n1. e4 {[%eval 1]} 1-0\n\n"
        "[Event \"b\"]\n  [Site \"t\"]\n%x\n\t[Result \"1-0\"]\n1. d4 0-1\n"
        "[Event \"headers only\"]\n[Termination \"abandoned\"]\n\n"
        "[Event \"c\"]\n[Result \"0-1\"]\n\n1. c4 {+0.1/3} c5 (1... e5 2. Nc3) 0-1\n"
        "1. e4 e5 1/2-1/2\n\n[Event \"d\"]\n%y\n[Result \"*\"]\n\n1. f4 *\n";
    const std::string whole = reading_of(text);
    int cuts = 0;
    for (std::size_t end = 1; end <= text.size(); ++end) {
        std::size_t cut = wdl::pgn::find_last_game_start(std::string_view(text).substr(0, end));
        if (cut == std::string::npos) continue;
        ++cuts;
        INFO("cut at " << cut);
        CHECK(reading_of(text.substr(0, cut)) + reading_of(text.substr(cut)) == whole);
    }
    CHECK(cuts > 0);
    // Never inside a section: not before "[Site" after an escape line or indentation.
    for (std::size_t end = 1; end <= text.size(); ++end) {
        std::size_t cut = wdl::pgn::find_last_game_start(std::string_view(text).substr(0, end));
        if (cut == std::string::npos) continue;
        CHECK(text.compare(cut, 6, "[Event") == 0);
    }
}
