#include <re2/re2.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string_view>
#include <utility>
#include <vector>

#include "wdl/chess/board.hpp"
#include "wdl/games/engine_filter.hpp"
#include "wdl/games/game_rules.hpp"

using namespace wdl;

namespace {

chess::Board board_of(const char* fen) {
    chess::Board board;
    REQUIRE(board.set_fen(fen));
    return board;
}

}  // namespace

TEST_CASE("counted keys: the move cut, mates kept, other evals binned", "[games][rules]") {
    games::CountedKeyRules rules(40, 5);
    auto white = board_of("4k3/8/8/8/8/8/8/4K2R w - - 0 40");
    auto key = rules.key_of(white, counts::Outcome::Win, 123);
    REQUIRE(key);
    auto unpacked = counts::unpack_key(*key);
    CHECK(unpacked.move == 40);
    CHECK(unpacked.material == 5);
    CHECK(unpacked.eval == counts::bin_eval(123, 5));
    CHECK(unpacked.result == counts::Outcome::Win);
    // Black to move sees White's win as its loss.
    auto black = board_of("4k3/8/8/8/8/8/8/4K2R b - - 0 40");
    CHECK(counts::unpack_key(*rules.key_of(black, counts::Outcome::Win, 0)).result ==
          counts::Outcome::Loss);
    CHECK_FALSE(rules.key_of(board_of("4k3/8/8/8/8/8/8/4K2R w - - 0 41"), counts::Outcome::Win, 0));
    CHECK(rules.binned(counts::kMateEval) == counts::kMateEval);
    CHECK(rules.binned(-counts::kMateEval) == -counts::kMateEval);
    // Every eval the table holds, and those beyond it (which the parsers clamp, but a caller
    // need not), bin as bin_eval does.
    for (int eval = -3000; eval <= 3000; ++eval) {
        if (eval == counts::kMateEval || eval == -counts::kMateEval) continue;
        CHECK(rules.binned(eval) == counts::bin_eval(eval, 5));
    }
}

TEST_CASE("the players an engine filter matches", "[games][rules]") {
    auto none = games::matched_players(nullptr, "New-abc", "Base-def");
    CHECK(none.white);
    CHECK(none.black);
    re2::RE2 filter("New-.*");
    auto matched = games::matched_players(&filter, "New-abc", "Base-def");
    CHECK(matched.white);
    CHECK_FALSE(matched.black);
    CHECK(games::matched_players(&filter, "Base-def", "New-abc").black);
    // The whole name must match, and a game lacking a name matches nobody.
    CHECK_FALSE(games::matched_players(&filter, "xNew-abc", "Base-def").any());
    CHECK_FALSE(games::matched_players(&filter, "New-abc", "").any());
}

TEST_CASE("a human game's tags: the first reason that holds leaves it out",
          "[games][rules][human]") {
    using games::HumanSkipReason;
    auto tags_of = [](std::vector<std::pair<const char*, const char*>> changed) {
        games::GameTags tags;
        std::vector<std::pair<const char*, const char*>> all = {
            {"Event", "Rated Blitz tournament https://lichess.org/tournament/x"},
            {"WhiteElo", "1500"},
            {"BlackElo", "1711"},
            {"TimeControl", "180+2"},
            {"Result", "1-0"}};
        for (const auto& change : changed) {
            // Named apart: clang 14 captures no structured binding in a lambda.
            const auto& name = change.first;
            const auto& value = change.second;
            auto same = std::find_if(all.begin(), all.end(), [&](const auto& tag) {
                return std::string_view(tag.first) == name;
            });
            if (same != all.end()) {
                same->second = value;
            } else {
                all.emplace_back(name, value);
            }
        }
        for (auto [name, value] : all) tags.read(name, value);
        return tags.human_rejection();
    };
    CHECK_FALSE(tags_of({}).has_value());
    CHECK_FALSE(tags_of({{"Variant", "Standard"}}).has_value());
    CHECK_FALSE(tags_of({{"TimeControl", "-"}}).has_value());
    CHECK_FALSE(tags_of({{"SetUp", "0"}}).has_value());
    CHECK_FALSE(tags_of({{"WhiteTitle", "GM"}}).has_value());
    CHECK(tags_of({{"Variant", "Chess960"}}) == HumanSkipReason::Variant);
    CHECK(tags_of({{"Variant", "From Position"}, {"SetUp", "1"}}) ==
          HumanSkipReason::SetUpPosition);
    CHECK(tags_of({{"FEN", "8/8/8/8/8/8/8/K1k5 w - - 0 1"}}) == HumanSkipReason::SetUpPosition);
    CHECK(tags_of({{"BlackTitle", "BOT"}}) == HumanSkipReason::Bot);
    CHECK(tags_of({{"Event", "Casual Blitz game"}}) == HumanSkipReason::Unrated);
    for (const char* rating : {"?", "", "-5", "6400", "15OO", "+1500"}) {
        INFO(rating);
        CHECK(tags_of({{"BlackElo", rating}}) == HumanSkipReason::Unrated);
    }
    CHECK(tags_of({{"TimeControl", "?"}}) == HumanSkipReason::UnknownTimeControl);
    // The order of the rules: a casual game of a BOT in Crazyhouse is a variant.
    CHECK(tags_of({{"Variant", "Crazyhouse"}, {"WhiteTitle", "BOT"}, {"Event", "Casual"}}) ==
          HumanSkipReason::Variant);
    CHECK(tags_of({{"WhiteTitle", "BOT"}, {"WhiteElo", "?"}}) == HumanSkipReason::Bot);
    // Tags are cleared between games.
    games::GameTags tags;
    tags.read("WhiteTitle", "BOT");
    tags.clear();
    tags.read("Event", "Rated Rapid game");
    tags.read("WhiteElo", "1500");
    tags.read("BlackElo", "1500");
    tags.read("TimeControl", "600+0");
    CHECK_FALSE(tags.human_rejection().has_value());
}
