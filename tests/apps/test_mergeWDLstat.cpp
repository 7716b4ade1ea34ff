#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/counts/count_file.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

ProgramRun merge(const std::vector<std::string>& arguments, const fs::path& directory) {
    return run_program("mergeWDLstat", arguments, directory);
}

// Scans the bundled corpus (its shard I of N, when given) into `output`.
void scan_corpus(const fs::path& output, const std::vector<std::string>& extra) {
    std::vector<std::string> arguments = {"--dir", "data", "-r", "-o", output.string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    auto run = run_program("scoreWDLstat", arguments, source_directory());
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
}

// The counts of a count file, plain or grouped, summed by key as spelled.
std::map<std::string, std::int64_t> plain_counts(const fs::path& file) {
    std::map<std::string, std::int64_t> counts;
    wdl::counts::read_count_file(file, [&](const wdl::counts::PositionKey& key, std::int64_t c) {
        counts[wdl::counts::format_key(key)] += c;
    });
    return counts;
}

}  // namespace

TEST_CASE("the merged shards of a scan are the scan, byte for byte", "[apps][merge][shard]") {
    auto [name, grouping] = GENERATE(table<std::string, std::vector<std::string>>(
        {{"plain", {}},
         {"by game", {"--groups", "8"}},
         {"by test", {"--groups", "8", "--groupBy", "test"}}}));
    auto shards = GENERATE(1, 2, 3, 7);
    INFO(name << ", " << shards << " shards");
    auto dir = fresh_directory(fmt::format("merge_shards_{}_{}", name, shards));
    scan_corpus(dir / "whole.json", grouping);
    std::vector<std::string> arguments;
    for (int shard = 0; shard < shards; ++shard) {
        auto file = dir / fmt::format("shard{}.json", shard);
        auto options = grouping;
        options.insert(options.end(), {"--shard", fmt::format("{}/{}", shard, shards)});
        scan_corpus(file, options);
        arguments.push_back(file.string());
    }
    arguments.insert(arguments.end(), {"-o", (dir / "merged.json").string(), "--json",
                                       (dir / "merged_summary.json").string()});
    auto run = merge(arguments, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(read_text_file(dir / "merged.json") == read_text_file(dir / "whole.json"));
    CHECK_THAT(run.output, Catch::Contains(fmt::format("Merged {} count files", shards)) &&
                               Catch::Contains("87993 positions"));
    auto summary = nlohmann::json::parse(read_text_file(dir / "merged_summary.json"));
    CHECK(summary["positions"] == 87993);
    CHECK(summary["inputs"].size() == std::size_t(shards));
    CHECK(summary["binWidth"] == 5);
    CHECK(summary["grouping"].is_null() == grouping.empty());
}

TEST_CASE("mergeWDLstat errors are one line, exit 1 and leave no output", "[apps][merge]") {
    auto dir = fresh_directory("merge_errors");
    write_text_file(dir / "plain.json", R"j({"('W', 12, 62, 35)": 4})j");
    write_text_file(dir / "grouped.json",
                    R"j({"format": "wdlfit-grouped-counts", "version": 1, "groupBy": "game",
                        "groups": 1, "keys": ["('W', 12, 62, 35)"], "counts": [[0, 1]]})j");
    write_text_file(dir / "bad_key.json", R"j({"('W', 12, 62)": 4})j");
    struct Case {
        std::vector<std::string> inputs;
        std::string named;
    };
    for (const auto& [inputs, named] : {Case{{"plain.json", "missing.json"}, "missing.json"},
                                        Case{{"plain.json", "grouped.json"}, "grouped.json"},
                                        Case{{"plain.json", "bad_key.json"}, "bad_key.json"}}) {
        auto arguments = inputs;
        arguments.insert(arguments.end(), {"-o", "out.json"});
        auto run = merge(arguments, dir);
        INFO(run.output);
        CHECK(run.exit_code == 1);
        auto lines = lines_of(run.output);
        REQUIRE(lines.size() == 1);
        CHECK_THAT(lines[0], Catch::StartsWith("Error: ") && Catch::Contains(named));
        CHECK_FALSE(fs::exists(dir / "out.json"));
    }
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3);
}

TEST_CASE("scoreWDLstat --perTest keeps each test apart, labelled, summing to the plain scan",
          "[apps][merge][labels]") {
    auto dir = fresh_directory("merge_per_test");
    scan_corpus(dir / "plain.json", {});
    scan_corpus(dir / "per_test.json", {"--perTest", "--groups", "4"});
    CHECK(plain_counts(dir / "per_test.json") == plain_counts(dir / "plain.json"));
    auto json = wdl::testing::grouped_file_header(dir / "per_test.json");
    const auto& units = json["labels"]["units"];
    REQUIRE(units.size() == 6);
    CHECK(json["labels"]["groupsPerLabel"] == 4);
    CHECK(json["groups"] == 24);
    CHECK(units[0]["id"] == "1508b764ed7a051de89f949b");
    CHECK(units[0]["date"] == "2025-04-09");
    CHECK(units[0]["threads"] == 8);
    CHECK(units[0]["tc"] == "60+0.6");
    CHECK(std::string(units[0]["new"]).substr(0, 8) == "502889ef");

    // The shards of the scan, merged test by test, are the scan byte for byte; an empty shard
    // (more shards than tests) merges too.
    auto shards = GENERATE(2, 3, 8);
    std::vector<std::string> arguments;
    for (int shard = 0; shard < shards; ++shard) {
        auto file = dir / fmt::format("shard{}.json", shard);
        scan_corpus(file,
                    {"--perTest", "--groups", "4", "--shard", fmt::format("{}/{}", shard, shards)});
        arguments.push_back(file.string());
    }
    arguments.insert(arguments.end(), {"-o", (dir / "merged.json").string()});
    auto run = merge(arguments, dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("6 labelled units"));
    CHECK(read_text_file(dir / "merged.json") == read_text_file(dir / "per_test.json"));
}
