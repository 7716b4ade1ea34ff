#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "wdl/games/eval_parsing.hpp"

using wdl::games::comment_eval;
using wdl::games::EvalParsing;

TEST_CASE("fishtest, cutechess and OpenBench comments carry the mover's eval", "[scan][eval]") {
    CHECK(comment_eval("+0.57/17 0.52s", EvalParsing::Exact) == 57);
    CHECK(comment_eval("0.00/21 0.38s", EvalParsing::Exact) == 0);
    CHECK(comment_eval("+0.57 17/28 583 363004", EvalParsing::Exact) == 57);
    CHECK(comment_eval("   -1.10/9 0.019s", EvalParsing::Exact) == -110);
    CHECK(comment_eval("+12.34/30 1s", EvalParsing::Exact) == 1000);
    CHECK(comment_eval("-25.00/30 1s", EvalParsing::Exact) == -1000);
}

TEST_CASE("mate scores are +-1001 by their sign", "[scan][eval]") {
    CHECK(comment_eval("+M5/20 0.1s", EvalParsing::Exact) == 1001);
    CHECK(comment_eval("-M4/20 0.1s", EvalParsing::Exact) == -1001);
    CHECK(comment_eval("-M4/20 0.1s", EvalParsing::Legacy) == -1001);
}

TEST_CASE("comments without an eval carry none and never fail", "[scan][eval]") {
    CHECK_FALSE(comment_eval("book", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("+0.57", EvalParsing::Exact));  // no delimiter
    CHECK_FALSE(comment_eval("White mates", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("White mates", EvalParsing::Legacy));
    CHECK_FALSE(comment_eval("+0.5x/3 1s", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("./3", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("-/3", EvalParsing::Legacy));
}

TEST_CASE("exact parsing rounds the decimal value half away from zero", "[scan][eval]") {
    using wdl::games::pawns_to_centipawns;
    CHECK(pawns_to_centipawns("-0.53", EvalParsing::Exact) == -53);
    CHECK(pawns_to_centipawns("+1.05", EvalParsing::Exact) == 105);
    CHECK(pawns_to_centipawns("-1.05", EvalParsing::Exact) == -105);
    CHECK(pawns_to_centipawns("0.125", EvalParsing::Exact) == 13);
    CHECK(pawns_to_centipawns("-0.125", EvalParsing::Exact) == -13);
    CHECK(pawns_to_centipawns("0.1249", EvalParsing::Exact) == 12);
    CHECK(pawns_to_centipawns("3", EvalParsing::Exact) == 300);
    CHECK(pawns_to_centipawns("99999999999999999999", EvalParsing::Exact) == 1000);
}

TEST_CASE("legacy parsing reproduces the original's float truncation", "[scan][eval]") {
    using wdl::games::pawns_to_centipawns;
    CHECK(pawns_to_centipawns("-0.53", EvalParsing::Legacy) == -52);
    CHECK(pawns_to_centipawns("-1.05", EvalParsing::Legacy) == -104);
    CHECK(pawns_to_centipawns("0.50", EvalParsing::Legacy) == 50);
}

TEST_CASE("legacy parsing differs on 124 of the 2001 two-decimal values, 28 binned apart",
          "[scan][eval]") {
    using wdl::counts::bin_eval;
    using wdl::games::pawns_to_centipawns;
    int differing = 0, differing_bins = 0;
    for (int hundredths = -1000; hundredths <= 1000; ++hundredths) {
        char token[16];
        std::snprintf(token, sizeof token, "%s%d.%02d", hundredths < 0 ? "-" : "",
                      std::abs(hundredths) / 100, std::abs(hundredths) % 100);
        int exact = *pawns_to_centipawns(token, EvalParsing::Exact);
        int legacy = *pawns_to_centipawns(token, EvalParsing::Legacy);
        CHECK(exact == hundredths);
        differing += exact != legacy;
        differing_bins += bin_eval(exact, 5) != bin_eval(legacy, 5);
    }
    CHECK(differing == 124);
    CHECK(differing_bins == 28);
}

TEST_CASE("lichess eval annotations are read from White's point of view", "[scan][eval]") {
    using wdl::games::lichess_eval;
    CHECK(lichess_eval("[%eval 0.57] [%clk 0:03:00]", EvalParsing::Exact) == 57);
    CHECK(lichess_eval(" [%eval -1.5]", EvalParsing::Exact) == -150);
    CHECK(lichess_eval("[%eval #-3]", EvalParsing::Exact) == -1001);
    CHECK(lichess_eval("[%eval #4]", EvalParsing::Exact) == 1001);
    CHECK_FALSE(lichess_eval("[%clk 0:03:00]", EvalParsing::Exact));
    CHECK_FALSE(lichess_eval("[%eval abc]", EvalParsing::Exact));
    // A lichess comment has no fishtest-style eval token.
    CHECK_FALSE(comment_eval(" [%eval 0.57] [%clk 0:03:00]", EvalParsing::Exact));
}

// comment_eval reads the usual "+H.hh/" start by a shortcut; it must agree with the general
// number parser on every such value, sign, delimiter and mode.
TEST_CASE("the two-decimal shortcut agrees with the general parser", "[scan][eval]") {
    using wdl::games::pawns_to_centipawns;
    int compared = 0;
    for (int hundredths = 0; hundredths < 10000; ++hundredths) {
        for (const char* sign : {"", "+", "-"}) {
            char token[16];
            std::snprintf(token, sizeof token, "%s%d.%02d", sign, hundredths / 100,
                          hundredths % 100);
            for (EvalParsing parsing : {EvalParsing::Exact, EvalParsing::Legacy}) {
                auto expected = pawns_to_centipawns(token, parsing);
                REQUIRE(expected);
                CAPTURE(token);
                CHECK(comment_eval(std::string(token) + "/17 0.52s", parsing) == expected);
                CHECK(comment_eval(std::string(token) + " 17/28 583", parsing) == expected);
                ++compared;
            }
        }
    }
    CHECK(compared == 60000);
    // Shapes the shortcut leaves to the general parser.
    CHECK(comment_eval("+0.5/3 1s", EvalParsing::Exact) == 50);
    CHECK(comment_eval("+100.25/3 1s", EvalParsing::Exact) == 1000);
    CHECK(comment_eval("+0.125/3 1s", EvalParsing::Exact) == 13);
    CHECK_FALSE(comment_eval("+0.57", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("+0.57x/3", EvalParsing::Exact));
}

TEST_CASE("a lichess eval wrapped onto the next line, or after a tab, is read", "[scan][eval]") {
    using wdl::games::lichess_eval;
    CHECK(lichess_eval("[%eval\n-0.05] [%clk 0:01:00]", EvalParsing::Exact) == -5);
    CHECK(lichess_eval("[%eval\r\n-0.05]", EvalParsing::Exact) == -5);
    CHECK(lichess_eval("[%eval\t1.25\n]", EvalParsing::Exact) == 125);
    CHECK_FALSE(lichess_eval("[%evaluation 1.0]", EvalParsing::Exact));
    CHECK(lichess_eval("[%evaluation 1.0] [%eval 0.5]", EvalParsing::Exact) == 50);
}

TEST_CASE("an engine comment wrapped after its score keeps it in exact mode", "[scan][eval]") {
    CHECK(comment_eval("+0.57\n17/28 583 363004", EvalParsing::Exact) == 57);
    CHECK(comment_eval("-1.5\t12/14", EvalParsing::Exact) == -150);
}

TEST_CASE("a number without a decimal point is no score in exact mode", "[scan][eval]") {
    using wdl::games::starts_with_bare_integer;
    // OpenBench's own malformed examples: a depth first, or a raw number.
    CHECK_FALSE(comment_eval("12/17 41 40000", EvalParsing::Exact));
    CHECK_FALSE(comment_eval("436 13/19 583 363004", EvalParsing::Exact));
    CHECK(starts_with_bare_integer("12/17 41 40000"));
    CHECK(starts_with_bare_integer(" 436 13/19"));
    CHECK_FALSE(starts_with_bare_integer("+0.57/17"));
    CHECK_FALSE(starts_with_bare_integer("book"));
    CHECK_FALSE(starts_with_bare_integer("-M4/9"));
    // The original read them as pawns; legacy mode still does.
    CHECK(comment_eval("12/17 41 40000", EvalParsing::Legacy) == 1000);
    CHECK(comment_eval("+3.00/17", EvalParsing::Exact) == 300);
}
