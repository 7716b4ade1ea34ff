#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "program_runner.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/games/file_selection.hpp"
#include "wdl/games/fix_fen.hpp"

namespace fs = std::filesystem;
using namespace wdl::games;
using wdl::counts::CountMap;
using wdl::fishtest::MetadataByFile;
using wdl::fishtest::RunMetadata;

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

TEST_CASE("a test id in two directories is a duplicate test", "[scan][files]") {
    auto messages = find_duplicate_tests({"x/t1.pgn.gz", "y/t1-2.pgn.gz", "y/t2.pgn.gz"});
    REQUIRE(messages.size() == 1);
    CHECK(messages[0] == "Detected a duplicate of test t1 in directory y");
}

TEST_CASE("files without metadata are dropped by every filter", "[scan][filters]") {
    MetadataByFile metadata;
    RunMetadata sprt;
    sprt.sprt = true;
    sprt.book = "UHO_Lichess_4852_v1.epd";
    sprt.tc = sprt.new_tc = "60+0.6";
    sprt.threads = 1;
    metadata["d/a.json"] = sprt;
    std::vector<fs::path> files{"d/a.pgn.gz", "d/b.pgn.gz"};
    std::ostringstream log;
    FileFilters filters;
    filters.match_book = "UHO_Lichess_4852_v..epd";
    auto kept = FileFilter(filters).apply(files, metadata, log);
    CHECK(kept == std::vector<fs::path>{"d/a.pgn.gz"});
    CHECK(log.str() == "Filtering pgn files matching the book name UHO_Lichess_4852_v..epd\n");
    filters.match_book_invert = true;
    CHECK(FileFilter(filters).apply(files, metadata, log).empty());
}

TEST_CASE("TC filter needs tc == new_tc and a whole-string match", "[scan][filters]") {
    MetadataByFile metadata;
    RunMetadata same, different;
    same.tc = same.new_tc = "60+0.6";
    different.tc = "60+0.6";
    different.new_tc = "30+0.3";
    metadata["d/a.json"] = same;
    metadata["d/b.json"] = different;
    std::ostringstream log;
    FileFilters filters;
    filters.match_tc = "60\\+0.6";
    auto kept = FileFilter(filters).apply({"d/a.pgn", "d/b.pgn"}, metadata, log);
    CHECK(kept == std::vector<fs::path>{"d/a.pgn"});
    filters.match_tc = "60";
    CHECK(FileFilter(filters).apply({"d/a.pgn"}, metadata, log).empty());
}

TEST_CASE("an asymmetric Elo window without --SPRTonly warns", "[scan][filters]") {
    std::ostringstream log;
    FileFilters filters;
    filters.elo_diff_max = 10;
    filters.elo_diff_min = -2;
    FileFilter(filters).apply({}, {}, log);
    CHECK(log.str() ==
          "Filtering pgn files with nElo in [-2, 10]\n"
          "Warning: Asymmetric nElo window suggests --SPRTonly should be used!\n");
}

TEST_CASE("a bad regex is reported with its option", "[scan][filters]") {
    FileFilters filters;
    filters.match_rev = "(unclosed";
    CHECK_THROWS_WITH(FileFilter(filters), Catch::Contains("--matchRev"));
}

TEST_CASE("fixFEN restores counters, preferring the smallest fullmove", "[scan][fixfen]") {
    auto table = FixFenTable::parse(
        "8/8/8/8/8/8/8/K1k5 w - - 3 40\n8/8/8/8/8/8/8/K1k5 w - - 7 12\nbad line\n");
    CHECK(table.size() == 1);
    CHECK(table.fix("8/8/8/8/8/8/8/K1k5 w - - 0 1") == "8/8/8/8/8/8/8/K1k5 w - - 7 12");
    CHECK(table.fix("8/8/8/8/8/8/8/K1k5 w - - 5 9") == "8/8/8/8/8/8/8/K1k5 w - - 5 9");
    CHECK_FALSE(table.fix("8/8/8/8/8/8/8/K2k4 w - - 0 1"));
}

TEST_CASE("the count map adds, grows and merges", "[counts][map]") {
    CountMap a, b;
    for (std::uint64_t key = 0; key < 20000; ++key) a.add(key * 7919);
    for (std::uint64_t key = 0; key < 20000; key += 2) b.add(key * 7919, 3);
    a.merge(b);
    CHECK(a.distinct_keys() == 20000);
    CHECK(a.total_count() == 20000 + 3 * 10000);
}

TEST_CASE("counts are written as the original's sorted JSON", "[counts][file]") {
    using wdl::counts::Outcome;
    CountMap counts;
    counts.add(wdl::counts::pack_key({Outcome::Win, 12, 62, 35}), 2);
    counts.add(wdl::counts::pack_key({Outcome::Draw, 1, 78, -5}));
    CHECK(wdl::counts::count_file_text(counts) ==
          "{\n  \"('D', 1, 78, -5)\": 1,\n  \"('W', 12, 62, 35)\": 2\n}");
}

TEST_CASE("game files are found under --dir, or --file alone", "[scan][files]") {
    auto dir = wdl::testing::fresh_directory("scan_find_game_files");
    fs::create_directories(dir / "sub");
    for (const char* name : {"b.pgn.gz", "a.pgn", "sub/c.pgn.zst", "notes.txt", "d.binpack"})
        wdl::testing::write_text_file(dir / name, "");
    std::ostringstream log;
    CHECK(find_game_files({{}, {}, dir, false, false, {}, true, {}}, log) ==
          std::vector<fs::path>{dir / "a.pgn", dir / "b.pgn.gz"});
    CHECK(find_game_files({{}, {}, dir, true, false, {}, true, {}}, log).size() == 3);
    // Training data is listed only when asked for by its names.
    CHECK(find_game_files({{}, {}, dir, false, false, {".binpack"}, true, {}}, log) ==
          std::vector<fs::path>{dir / "a.pgn", dir / "b.pgn.gz", dir / "d.binpack"});
    CHECK(find_game_files({{}, {}, dir, false, false, {".binpack"}, false, {}}, log) ==
          std::vector<fs::path>{dir / "d.binpack"});
    CHECK(find_game_files({dir / "notes.txt", {}, dir, false, false, {}, true, {}}, log) ==
          std::vector<fs::path>{dir / "notes.txt"});
    CHECK_THROWS_WITH(find_game_files({dir / "none.pgn", {}, dir, false, false, {}, true, {}}, log),
                      Catch::Contains("File not found: " + (dir / "none.pgn").string()));
    CHECK_THROWS_WITH(find_game_files({{}, {}, dir / "none", false, false, {}, true, {}}, log),
                      Catch::Contains("Directory not found"));
}

TEST_CASE("shards partition the files and never split a test", "[scan][shard]") {
    auto root = wdl::testing::fresh_directory("scan_shards");
    std::vector<fs::path> files;
    std::map<fs::path, std::string> test_of;
    for (int test = 0; test < 23; ++test) {
        auto id = "t" + std::to_string(test);
        auto folder = root / ("25-01-" + std::to_string(10 + test % 5)) / id;
        fs::create_directories(folder);
        for (int task = 0; task < 1 + test % 3; ++task) {
            auto file = folder / (id + "-" + std::to_string(task) + ".pgn.gz");
            wdl::testing::write_text_file(file, std::string(std::size_t(100 + 37 * test), 'x'));
            files.push_back(file);
            test_of[file] = folder.string() + id;
        }
    }
    std::sort(files.begin(), files.end());
    for (int count : {1, 2, 3, 7}) {
        CAPTURE(count);
        std::map<fs::path, int> shard_of;
        std::vector<std::uint64_t> bytes(static_cast<std::size_t>(count));
        for (int index = 0; index < count; ++index) {
            for (const auto& file : shard_files(files, root, {index, count})) {
                CHECK(shard_of.emplace(file, index).second);  // in one shard only
                bytes[std::size_t(index)] += fs::file_size(file);
            }
        }
        CHECK(shard_of.size() == files.size());
        for (const auto& [file, shard] : shard_of)
            for (const auto& [other, other_shard] : shard_of)
                if (test_of[file] == test_of[other]) CHECK(shard == other_shard);
        // Balanced: no shard is further from another than the largest test (3 x 951 bytes).
        auto [low, high] = std::minmax_element(bytes.begin(), bytes.end());
        CHECK(*high - *low <= 3 * (100 + 37 * 22));
        // The same partition whatever order the files are listed in.
        auto reversed = files;
        std::reverse(reversed.begin(), reversed.end());
        CHECK(shard_files(reversed, root, {count - 1, count}) ==
              shard_files(files, root, {count - 1, count}));
    }
}

// Training data has no tests: files that share a name's start ("data-1.binpack") are not kept
// together, so that shards of a folder of binpacks are balanced.
TEST_CASE("shards of training data take each file as a unit", "[scan][shard]") {
    auto root = wdl::testing::fresh_directory("scan_shards_training");
    std::vector<fs::path> files;
    for (int i = 0; i < 8; ++i) {
        auto file = root / ("data-" + std::to_string(i) + ".binpack");
        wdl::testing::write_text_file(file, std::string(1000, 'x'));
        files.push_back(file);
    }
    for (int index = 0; index < 4; ++index) CHECK(shard_files(files, root, {index, 4}).size() == 2);
}

TEST_CASE("shards are given as I/N with 0 <= I < N", "[scan][shard]") {
    CHECK(parse_shard("0/4").index == 0);
    CHECK(parse_shard("3/4").count == 4);
    for (const char* bad : {"4/4", "-1/4", "1/0", "1", "a/b", "1/4x", "/4", "1/"})
        CHECK_THROWS_WITH(parse_shard(bad), Catch::Contains("--shard must be I/N"));
}

TEST_CASE("a file list names the files to read", "[scan][files]") {
    auto dir = wdl::testing::fresh_directory("scan_file_list");
    for (const char* name : {"a.pgn", "b.pgn.gz"}) wdl::testing::write_text_file(dir / name, "");
    wdl::testing::write_text_file(dir / "list.txt", "# part 1\n" + (dir / "b.pgn.gz").string() +
                                                        "\n\n" + (dir / "a.pgn").string() + "\n");
    std::ostringstream log;
    GameFileSource source;
    source.file_list = dir / "list.txt";
    CHECK(find_game_files(source, log) == std::vector<fs::path>{dir / "a.pgn", dir / "b.pgn.gz"});
    wdl::testing::write_text_file(dir / "list.txt", (dir / "gone.pgn").string() + "\n");
    CHECK_THROWS_WITH(find_game_files(source, log),
                      Catch::Contains("gone.pgn") && Catch::Contains("list.txt"));
}
