#include <catch2/catch.hpp>
#include <string>

#include "program_runner.hpp"
#include "wdl/scan/scan_summary.hpp"
#include "wdl/util/error.hpp"

using namespace wdl;
using scan::ScanSummary;

namespace {

ScanSummary full_summary() {
    ScanSummary summary;
    summary.files.files_read = 9;
    summary.files.files_damaged = 1;
    summary.files.text_bytes = 2533412;
    summary.files.warnings = {"Warning: a.pgn.gz: truncated; its complete games were counted"};
    summary.games.read = 800;
    summary.games.accepted = 798;
    summary.games.skipped = {{"no decisive or drawn result", 1}, {"excluded termination", 1}};
    summary.games.adjudicated = 662;
    summary.games.time_forfeits = 1;
    summary.positions = 87993;
    summary.scoreless_comments = 3;
    summary.distinct_keys = 75489;
    summary.seconds = 0.25;
    summary.output = "scoreWDLstat.json";
    scan::ScannedTest test;
    test.id = "2415af9da521a8da87cf894a";
    test.start_time = "2023-03-14T06:24:47.000+00:00";
    test.time_controls = {"10+0.1"};
    test.threads = 1;
    test.sprt = true;
    test.normalized_elo = 21.84;
    test.resolved_new = "817c898c";
    summary.tests = {test};
    games::FileFilters filters;
    filters.match_tc = "10\\+0.1";
    filters.elo_diff_min = -2;
    summary.filters = filters;
    summary.grouping = scan::ScanGrouping{"test", 4, 12};
    return summary;
}

}  // namespace

TEST_CASE("a scan summary reads back as it was written", "[scan][summary]") {
    auto json = scan::scan_summary_json(full_summary());
    auto again = scan::scan_summary_from_json(json);
    CHECK(scan::scan_summary_json(again) == json);
    CHECK(again.games.skipped[1].first == "excluded termination");
    CHECK(again.tests.at(0).normalized_elo == 21.84);
    CHECK_FALSE(again.tests.at(0).book.has_value());
    REQUIRE(again.filters.has_value());
    CHECK(again.filters->match_tc == "10\\+0.1");
    CHECK(again.filters->elo_diff_min == -2);
    CHECK_FALSE(again.filters->elo_diff_max.has_value());
    REQUIRE(again.grouping.has_value());
    CHECK(again.grouping->tests == 12);
    // The written field names, as docs/formats.md shows them.
    CHECK(json["games"]["timeForfeits"] == 1);
    CHECK(json["grouping"]["perTest"] == true);
    CHECK(json["tests"][0]["book"].is_null());
}

TEST_CASE("an older scan summary without the later fields still reads", "[scan][summary]") {
    auto json = nlohmann::ordered_json::parse(R"({
        "files": {"read": 1, "damaged": 0, "unreadable": 0, "textBytes": 10},
        "games": {"read": 5, "accepted": 4, "skipped": {"no decisive or drawn result": 1}},
        "positions": 300, "distinctKeys": 200, "seconds": 0.1, "warnings": []})");
    auto summary = scan::scan_summary_from_json(json);
    CHECK(summary.games.accepted == 4);
    CHECK_FALSE(summary.games.adjudicated.has_value());
    CHECK_FALSE(summary.filters.has_value());
    CHECK(summary.tests.empty());
    CHECK(summary.scoreless_comments == 0);
}

TEST_CASE("a summary that is not one names what is wrong", "[scan][summary]") {
    using Catch::Contains;
    using Catch::Equals;
    CHECK_THROWS_WITH(scan::scan_summary_from_json(nlohmann::ordered_json::array()),
                      Contains("not a JSON object"));
    CHECK_THROWS_WITH(scan::scan_summary_from_json(nlohmann::ordered_json::parse(R"({"x": 1})")),
                      Equals("the scan summary's \"games\" is missing"));
    CHECK_THROWS_WITH(
        scan::scan_summary_from_json(nlohmann::ordered_json::parse(R"({"games": 5})")),
        Equals("the scan summary's games is not a JSON object"));
    CHECK_THROWS_WITH(scan::scan_summary_from_json(nlohmann::ordered_json::parse(
                          R"({"games": {"read": "many", "accepted": 1}})")),
                      Contains("games.\"read\" has the wrong type"));
    CHECK_THROWS_WITH(scan::scan_summary_from_json(nlohmann::ordered_json::parse(
                          R"({"games": {"read": 1, "accepted": 1}, "tests": [{"id": 7}]})")),
                      Contains("tests[0].\"id\" has the wrong type"));
    auto folder = testing::fresh_directory("scan_summary_bad");
    testing::write_text_file(folder / "counts.pgn", "[Event \"?\"]\n");
    CHECK_THROWS_WITH(scan::read_scan_summary(folder / "counts.pgn"),
                      Contains("counts.pgn") && Contains("is not JSON"));
    CHECK_THROWS_WITH(scan::read_scan_summary(folder / "absent.json"), Contains("absent.json"));
}
