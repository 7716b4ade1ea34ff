#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "wdl/archive/shard_list.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::testing;
using namespace wdl::archive;
using wdl::download::ArchiveTest;
namespace fs = std::filesystem;

namespace {

// A test with its metadata (100 bytes) and game files of these sizes.
ArchiveTest test_of(const std::string& id, std::vector<std::uint64_t> game_sizes) {
    ArchiveTest test{"25-01-01", id, {{"25-01-01/" + id + "/" + id + ".json", 100, ""}}};
    for (std::size_t i = 0; i < game_sizes.size(); ++i) {
        test.files.push_back({"25-01-01/" + id + "/" + id + "-" + std::to_string(i) + ".pgn.gz",
                              game_sizes[i], "ab"});
    }
    return test;
}

std::vector<std::string> ids_of(const std::vector<ArchiveTest>& batch) {
    std::vector<std::string> ids;
    for (const auto& test : batch) ids.push_back(test.id);
    return ids;
}

}  // namespace

TEST_CASE("tests are cut into batches of at most the size asked, in order", "[archive]") {
    std::vector<ArchiveTest> tests = {test_of("a", {400}), test_of("b", {400}),
                                      test_of("c", {5000}), test_of("d", {100}),
                                      test_of("e", {100})};
    auto batches = cut_into_batches(tests, 1000);
    REQUIRE(batches.size() == 3);
    CHECK(ids_of(batches[0]) == std::vector<std::string>{"a", "b"});  // 1000 bytes
    CHECK(ids_of(batches[1]) == std::vector<std::string>{"c"});       // larger than a batch
    CHECK(ids_of(batches[2]) == std::vector<std::string>{"d", "e"});
    CHECK(listed_bytes(tests[2]) == 5100);
    CHECK(cut_into_batches({}, 1000).empty());
}

TEST_CASE("pending tests leave out the files of recorded shards and the skipped tests",
          "[archive]") {
    std::vector<ArchiveTest> tests = {test_of("a", {10, 20}), test_of("b", {30}),
                                      test_of("c", {40})};
    ShardList list{"commit", {}, {}};
    Shard shard;
    shard.files = {{tests[0].files[1].path, 10, "ab"}, {tests[1].files[1].path, 30, "ab"}};
    shard.skipped_tests = {"c"};
    list.shards.push_back(shard);
    auto pending = pending_tests(tests, list);
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].id == "a");
    REQUIRE(pending[0].files.size() == 2);  // its metadata and its one file still to do
    CHECK(pending[0].files[0].path == tests[0].files[0].path);
    CHECK(pending[0].files[1].path == tests[0].files[2].path);
}

TEST_CASE("the shard list is written and read back, and another refit's is refused", "[archive]") {
    auto dir = fresh_directory("archive_shard_list");
    auto path = shard_list_path(dir);
    CHECK_FALSE(read_shard_list(path));
    ShardList list{"c0ffee", {{"dates", {"25-*"}}, {"scan", {{"groups", 64}}}}, {}};
    Shard shard;
    shard.batch = 3;
    shard.counts = "shards/3.json";
    shard.files = {{"25-01-01/a/a.pgn.gz", 12345678901, "00ff"}};
    shard.skipped_tests = {"b"};
    list.shards = {shard, Shard{4, std::nullopt, {}, {"c"}}};
    write_shard_list(path, list);
    auto read = read_shard_list(path);
    REQUIRE(read);
    CHECK(read->commit == "c0ffee");
    CHECK(read->selection == list.selection);
    REQUIRE(read->shards.size() == 2);
    CHECK(read->shards[0].batch == 3);
    CHECK(read->shards[0].counts == "shards/3.json");
    CHECK(read->shards[0].files[0].size == 12345678901);
    CHECK(read->shards[0].files[0].sha256 == "00ff");
    CHECK(read->shards[0].skipped_tests == std::vector<std::string>{"b"});
    CHECK_FALSE(read->shards[1].counts);

    CHECK_NOTHROW(check_same_refit(*read, "c0ffee", list.selection, path));
    CHECK_THROWS_WITH(check_same_refit(*read, "beef", list.selection, path),
                      Catch::Contains("--revision c0ffee") && Catch::Contains(path.string()));
    auto other = list.selection;
    other["scan"]["groups"] = 16;
    CHECK_THROWS_WITH(check_same_refit(*read, "c0ffee", other, path),
                      Catch::Contains("differing: scan"));
}

TEST_CASE("a damaged or foreign shard list is an error naming the file", "[archive]") {
    auto dir = fresh_directory("archive_damaged_list");
    auto path = shard_list_path(dir);
    for (const std::string text :
         {"{\"wdlfitArchiveShards\": 1, \"commit\": \"x\"",
          "{\"wdlfitArchiveShards\": 1, \"commit\": 5}", "{\"keys\": []}", "[1, 2]", ""}) {
        INFO(text);
        write_text_file(path, text);
        CHECK_THROWS_AS(read_shard_list(path), wdl::Error);
        CHECK_THROWS_WITH(read_shard_list(path), Catch::Contains(path.string()));
    }
}
