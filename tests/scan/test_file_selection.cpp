#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "wdl/scan/count_map.hpp"
#include "wdl/scan/counts_json.hpp"
#include "wdl/scan/file_selection.hpp"
#include "wdl/scan/fix_fen.hpp"
#include "wdl/scan/test_metadata.hpp"

namespace fs = std::filesystem;
using namespace wdl::scan;

TEST_CASE("game files are recognised by their endings", "[scan][files]") {
    CHECK(is_game_file_name("a.pgn"));
    CHECK(is_game_file_name("a-1.pgn.gz"));
    CHECK(is_game_file_name("a.pgn.zst"));
    CHECK_FALSE(is_game_file_name("a.json"));
    CHECK_FALSE(is_game_file_name("a.pgn.bz2"));
    CHECK_FALSE(is_game_file_name(".pgn"));
}

TEST_CASE("a name that prefixes the next is a duplicate", "[scan][files]") {
    auto duplicate = find_duplicate_files({"d/x.pgn", "d/x.pgn.gz", "d/y.pgn"});
    REQUIRE(duplicate);
    CHECK(duplicate->second == "d/x.pgn.gz");
    CHECK_FALSE(find_duplicate_files({"d/x-1.pgn.gz", "d/x-2.pgn.gz"}));
    auto compressed_twice = find_duplicate_files({"d/x.pgn.gz", "d/x.pgn.zst"});
    REQUIRE(compressed_twice);
    CHECK(compressed_twice->first == "d/x.pgn.gz");
    CHECK_FALSE(find_duplicate_files({"d/x.pgn.gz", "d/xy.pgn.zst"}));
}

TEST_CASE("test ids come from the name up to the first '-' or '.'", "[scan][files]") {
    CHECK(test_id_of("a/b/716838bf-3.pgn.gz") == "716838bf");
    CHECK(test_stem_of("a/b/716838bf.pgn") == fs::path("a/b/716838bf"));
    auto messages = find_duplicate_tests({"x/t1.pgn.gz", "y/t1-2.pgn.gz", "y/t2.pgn.gz"});
    REQUIRE(messages.size() == 1);
    CHECK(messages[0] == "Detected a duplicate of test t1 in directory y");
}

TEST_CASE("normalized Elo follows the pentanomial formula", "[scan][metadata]") {
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
}

TEST_CASE("metadata fields are read from args and results", "[scan][metadata]") {
    auto metadata = parse_test_metadata(R"({"args": {"book": "b.epd", "tc": "60+0.6",
        "new_tc": "60+0.6", "threads": 1, "resolved_base": "aa", "resolved_new": "bb",
        "sprt": {"elo0": 0}}, "results": {"pentanomial": [1, 2, 3, 4, 5]}})");
    CHECK(metadata.book == "b.epd");
    CHECK(metadata.threads == 1);
    CHECK(metadata.sprt);
    REQUIRE(metadata.pentanomial);
    CHECK((*metadata.pentanomial)[4] == 5);
    auto bare = parse_test_metadata(R"({"args": {}})");
    CHECK_FALSE(bare.sprt);
    CHECK_FALSE(bare.book);
    CHECK_THROWS(parse_test_metadata("{broken"));
}

TEST_CASE("files without metadata are dropped by every filter", "[scan][filters]") {
    MetadataByTest metadata;
    TestMetadata sprt;
    sprt.sprt = true;
    sprt.book = "UHO_Lichess_4852_v1.epd";
    sprt.tc = sprt.new_tc = "60+0.6";
    sprt.threads = 1;
    metadata["d/a"] = sprt;
    std::vector<fs::path> files{"d/a.pgn.gz", "d/b.pgn.gz"};
    std::ostringstream log;
    FileFilters filters;
    filters.match_book = "UHO_Lichess_4852_v..epd";
    auto kept = apply_filters(files, metadata, filters, log);
    CHECK(kept == std::vector<fs::path>{"d/a.pgn.gz"});
    CHECK(log.str() == "Filtering pgn files matching the book name UHO_Lichess_4852_v..epd\n");
    filters.match_book_invert = true;
    CHECK(apply_filters(files, metadata, filters, log).empty());
}

TEST_CASE("TC filter needs tc == new_tc and a whole-string match", "[scan][filters]") {
    MetadataByTest metadata;
    TestMetadata same, different;
    same.tc = same.new_tc = "60+0.6";
    different.tc = "60+0.6";
    different.new_tc = "30+0.3";
    metadata["d/a"] = same;
    metadata["d/b"] = different;
    std::ostringstream log;
    FileFilters filters;
    filters.match_tc = "60\\+0.6";
    auto kept = apply_filters({"d/a.pgn", "d/b.pgn"}, metadata, filters, log);
    CHECK(kept == std::vector<fs::path>{"d/a.pgn"});
    filters.match_tc = "60";
    CHECK(apply_filters({"d/a.pgn"}, metadata, filters, log).empty());
}

TEST_CASE("an asymmetric Elo window without --SPRTonly warns", "[scan][filters]") {
    std::ostringstream log;
    FileFilters filters;
    filters.elo_diff_max = 10;
    filters.elo_diff_min = -2;
    apply_filters({}, {}, filters, log);
    CHECK(log.str() ==
          "Filtering pgn files with nElo in [-2, 10]\n"
          "Warning: Asymmetric nElo window suggests --SPRTonly should be used!\n");
}

TEST_CASE("a bad regex is reported with its option", "[scan][filters]") {
    FileFilters filters;
    filters.match_rev = "(unclosed";
    CHECK_THROWS_WITH(validate_filters(filters), Catch::Contains("--matchRev"));
}

TEST_CASE("fixFEN restores counters, preferring the smallest fullmove", "[scan][fixfen]") {
    auto table = FixFenTable::parse(
        "8/8/8/8/8/8/8/K1k5 w - - 3 40\n8/8/8/8/8/8/8/K1k5 w - - 7 12\nbad line\n");
    CHECK(table.size() == 1);
    CHECK(table.fix("8/8/8/8/8/8/8/K1k5 w - - 0 1") == "8/8/8/8/8/8/8/K1k5 w - - 7 12");
    CHECK(table.fix("8/8/8/8/8/8/8/K1k5 w - - 5 9") == "8/8/8/8/8/8/8/K1k5 w - - 5 9");
    CHECK_FALSE(table.fix("8/8/8/8/8/8/8/K2k4 w - - 0 1"));
}

TEST_CASE("the count map adds, grows and merges", "[scan][counts]") {
    CountMap a, b;
    for (std::uint64_t key = 0; key < 20000; ++key) a.add(key * 7919);
    for (std::uint64_t key = 0; key < 20000; key += 2) b.add(key * 7919, 3);
    a.merge(b);
    CHECK(a.distinct_keys() == 20000);
    CHECK(a.total_count() == 20000 + 3 * 10000);
}

TEST_CASE("counts are written as the original's sorted JSON", "[scan][counts]") {
    using wdl::model::Outcome;
    CountMap counts;
    counts.add(wdl::model::pack_key({Outcome::Win, 12, 62, 35}), 2);
    counts.add(wdl::model::pack_key({Outcome::Draw, 1, 78, -5}));
    CHECK(counts_to_json(counts) == "{\n  \"('D', 1, 78, -5)\": 1,\n  \"('W', 12, 62, 35)\": 2\n}");
    CHECK(counts_to_json(CountMap{}) == "{}");
}
