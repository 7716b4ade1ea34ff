#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "program_runner.hpp"
#include "wdl/fishtest/run_metadata.hpp"

using namespace wdl::fishtest;
using nlohmann::json;

namespace {

json run(const std::string& start_time, const std::string& tc, const std::string& book, int wins,
         int draws, int losses) {
    return {{"args",
             {{"tc", tc},
              {"new_tc", tc},
              {"book", book},
              {"threads", 1},
              {"sprt", {{"elo0", 0}, {"elo1", 2}}}}},
            {"results", {{"wins", wins}, {"draws", draws}, {"losses", losses}}},
            {"start_time", start_time}};
}

RunMetadata parsed(const json& run) { return parse_run_metadata(run); }

}  // namespace

TEST_CASE("metadata fields are read from args and results", "[fishtest][metadata]") {
    auto metadata = parse_run_metadata(json::parse(R"({"args": {"book": "b.epd", "tc": "60+0.6",
        "new_tc": "60+0.6", "threads": 1, "resolved_base": "aa", "resolved_new": "bb",
        "sprt": {"elo0": 0}}, "results": {"wins": 4, "draws": 5, "losses": 6,
        "pentanomial": [1, 2, 3, 4, 5]}})"));
    CHECK(metadata.book == "b.epd");
    CHECK(metadata.threads == 1);
    CHECK(metadata.resolved_new == "bb");
    CHECK(metadata.sprt);
    CHECK_FALSE(metadata.spsa);
    CHECK(metadata.games() == 15);
    REQUIRE(metadata.pentanomial);
    CHECK((*metadata.pentanomial)[4] == 5);
    auto bare = parse_run_metadata(json::parse(R"({"args": {"threads": "8"}})"));
    CHECK_FALSE(bare.sprt);
    CHECK_FALSE(bare.book);
    CHECK(bare.threads == 8);
    CHECK_FALSE(bare.games());
}

TEST_CASE("counts that are not non-negative integers are absent", "[fishtest][metadata]") {
    // A server's floats (1e30 does not fit any integer) or negative counts must not be cast.
    auto metadata = parse_run_metadata(json::parse(
        R"({"results": {"wins": 1e30, "draws": -3, "losses": 2, "pentanomial": [1, 2, 3.5, 4, 5]},
            "args": {"threads": 1e12}})"));
    CHECK_FALSE(metadata.wins);
    CHECK_FALSE(metadata.draws);
    CHECK(metadata.losses == 2);
    CHECK(metadata.games() == 2);
    CHECK_FALSE(metadata.pentanomial);
    CHECK_FALSE(metadata.threads);
    // Counts whose sum leaves 64 bits saturate rather than wrap.
    auto huge = parse_run_metadata(
        json::parse(R"({"results": {"wins": 9223372036854775807, "draws": 9223372036854775807}})"));
    CHECK(huge.games() == INT64_MAX);
}

TEST_CASE("normalized Elo follows the pentanomial formula", "[fishtest][metadata]") {
    CHECK(normalized_elo({10, 20, 40, 20, 10}) == Approx(0.0).margin(1e-12));
    // score 0.55, variance from the five pair scores, nElo = (s-0.5)/sqrt(2 var)*800/ln10
    std::array<std::int64_t, 5> counts{5, 15, 40, 25, 15};
    double n = 100, score = (0.25 * 15 + 0.5 * 40 + 0.75 * 25 + 15) / n;
    double variance =
        (5 * score * score + 15 * std::pow(0.25 - score, 2) + 40 * std::pow(0.5 - score, 2) +
         25 * std::pow(0.75 - score, 2) + 15 * std::pow(1 - score, 2)) /
        n;
    CHECK(normalized_elo(counts) ==
          Approx((score - 0.5) / std::sqrt(2 * variance) * 800 / std::log(10.0)));
    CHECK(std::isnan(normalized_elo({0, 0, 0, 0, 0})));
}

TEST_CASE("run selection follows the original downloader's rules", "[fishtest][metadata]") {
    auto ltc = run("2024-07-21T11:26:57.000+00:00", "60+0.6", "UHO_Lichess_4852_v1.epd", 1, 2, 3);
    SelectionRules none;
    CHECK_FALSE(reason_to_skip(parsed(ltc), none));
    CHECK(date_folder(parsed(ltc)) == "24-07-21");
    CHECK_THROWS(date_folder(parsed(json{{"start_time", "yesterday"}})));

    auto spsa = ltc;
    spsa["args"]["spsa"] = json::object();
    CHECK(reason_to_skip(parsed(spsa), none) == RunSkipReason::spsa);

    auto empty = run("2024-07-21T11:26:57+00:00", "60+0.6", "x.epd", 0, 0, 0);
    CHECK(reason_to_skip(parsed(empty), none) == RunSkipReason::no_games);

    auto frc = run("2024-07-21T11:26:57+00:00", "60+0.6", "DFRC_openings.epd", 1, 1, 1);
    CHECK_FALSE(reason_to_skip(parsed(frc), none));
    CHECK(reason_to_skip(parsed(frc), SelectionRules{true, {}, {}}) == RunSkipReason::frc_book);

    SelectionRules long_only{false, 30.0, {}};
    SelectionRules short_only{false, {}, 20.0};
    auto stc = run("2024-07-21T11:26:57+00:00", "10+0.1", "x.epd", 1, 1, 1);
    CHECK(reason_to_skip(parsed(stc), long_only) == RunSkipReason::time_control);
    CHECK_FALSE(reason_to_skip(parsed(stc), short_only));
    CHECK(reason_to_skip(parsed(ltc), short_only) == RunSkipReason::time_control);
    auto odds = stc;
    odds["args"]["new_tc"] = "60+0.6";
    CHECK(time_controls(parsed(odds)) == std::vector<std::string>{"10+0.1", "60+0.6"});
    CHECK(time_controls(parsed(stc)) == std::vector<std::string>{"10+0.1"});
    CHECK(reason_to_skip(parsed(odds), short_only) == RunSkipReason::time_control);
    auto at_lower = run("2024-07-21T11:26:57+00:00", "30+0.3", "x.epd", 1, 1, 1);
    auto at_upper = run("2024-07-21T11:26:57+00:00", "20+0.2", "x.epd", 1, 1, 1);
    CHECK_FALSE(reason_to_skip(parsed(at_lower), long_only));
    CHECK_FALSE(reason_to_skip(parsed(at_upper), short_only));
    CHECK(base_time("2.5+0.025") == 2.5);
    CHECK_FALSE(base_time("+0.6"));
}

TEST_CASE("metadata is formatted as Python's json.dump(sort_keys=True, indent=4)",
          "[fishtest][metadata]") {
    json metadata = json::parse(R"({"b": {"z": [1, 2], "a": 0.05}, "a": "é", "c": []})");
    CHECK(format_metadata(metadata) ==
          "{\n    \"a\": \"\\u00e9\",\n    \"b\": {\n        \"a\": 0.05,\n        \"z\": [\n"
          "            1,\n            2\n        ]\n    },\n    \"c\": []\n}");
}

TEST_CASE("metadata of game files is loaded once per test, malformed files warned about",
          "[fishtest][metadata]") {
    auto dir = wdl::testing::fresh_directory("fishtest_load_metadata");
    wdl::testing::write_text_file(dir / "aa.json", R"({"args": {"book": "b.epd"}})");
    wdl::testing::write_text_file(dir / "bb.json", "[1, 2]");
    std::vector<std::string> warnings;
    auto metadata = load_metadata(
        {dir / "aa-1.pgn.gz", dir / "aa-2.pgn.gz", dir / "bb.pgn", dir / "cc.pgn"}, warnings);
    REQUIRE(metadata.size() == 1);
    CHECK(metadata[dir / "aa.json"].book == "b.epd");
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains((dir / "bb.json").string()));
}
