#include <catch2/catch.hpp>
#include <filesystem>

#include "program_runner.hpp"
#include "wdl/fishtest/layout.hpp"

namespace fs = std::filesystem;
using namespace wdl::fishtest;

TEST_CASE("game files are recognised by their endings", "[fishtest][layout]") {
    CHECK(is_game_file_name("a.pgn"));
    CHECK(is_game_file_name("a-1.pgn.gz"));
    CHECK(is_game_file_name("a.pgn.zst"));
    CHECK_FALSE(is_game_file_name("a.json"));
    CHECK_FALSE(is_game_file_name("a.pgn.bz2"));
    CHECK_FALSE(is_game_file_name("abc.pgn.gz.tmp.123.0"));  // an unfinished download
    CHECK_FALSE(is_game_file_name(".pgn"));
}

TEST_CASE("test ids come from the name up to the first '-' or '.'", "[fishtest][layout]") {
    CHECK(test_id_of("a/b/716838bf67ed35143299f7d3.pgn.gz") == "716838bf67ed35143299f7d3");
    CHECK(test_id_of("a/b/716838bf-3.pgn.gz") == "716838bf");
    CHECK(test_id_of("abc.pgn.zst") == "abc");
    // Training data is no fishtest test: a file of its own whole name.
    CHECK(test_id_of("a/test80-2024-01.binpack") == "test80-2024-01.binpack");
    CHECK(metadata_file_of("a/b/716838bf-3.pgn.gz") == fs::path("a/b/716838bf.json"));
    CHECK(is_valid_test_id("716838bf67ed35143299f7d3"));
    CHECK_FALSE(is_valid_test_id("../evil"));
    CHECK_FALSE(is_valid_test_id("ABC"));
    CHECK_FALSE(is_valid_test_id(""));
}

TEST_CASE("downloaded tests are found by their game files, in every folder", "[fishtest][layout]") {
    auto root = wdl::testing::fresh_directory("fishtest_layout");
    for (const char* file : {"24-07-21/aa01/aa01-1.pgn.gz", "24-07-21/aa01/aa01-2.pgn.gz",
                             "25-01-01/aa01/aa01.pgn", "24-07-21/bb02/bb02.pgn.gz.tmp.1.0",
                             "24-07-21/cc03/CC03.pgn", ".hidden/dd04/dd04.pgn.gz"}) {
        fs::create_directories((root / file).parent_path());
        wdl::testing::write_text_file(root / file, "");
    }
    auto folders = find_test_folders(root);
    REQUIRE(folders.size() == 1);
    CHECK(folders["aa01"] == std::set<fs::path>{root / "24-07-21/aa01", root / "25-01-01/aa01"});
    CHECK(find_downloaded_tests(root)["aa01"] == root / "24-07-21/aa01");
    CHECK(game_file_path(root, "24-07-21", "aa01") == root / "24-07-21/aa01/aa01.pgn.gz");
}

TEST_CASE("finished games are counted by their Result tags", "[fishtest][layout]") {
    auto root = wdl::testing::fresh_directory("fishtest_count_games");
    wdl::testing::write_text_file(root / "a.pgn",
                                  "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"*\"]\n\n*\n\n"
                                  "[Result \"1/2-1/2\"]\n\n1/2-1/2\n\n[Result \"0-1\"]");
    CHECK(count_finished_games(root / "a.pgn") == 3);
    CHECK(count_finished_games(root / "missing.pgn") == 0);
}
