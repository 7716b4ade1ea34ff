#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>

#include "program_runner.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace fs = std::filesystem;
using namespace wdl::counts;

namespace {

fs::path write_input(const std::string& name, const std::string& content) {
    fs::path path = wdl::testing::scratch_directory() / ("wdl_test_count_merge_" + name);
    std::ofstream(path) << content;
    return path;
}

// The merged counts as (group, spelled key) -> count.
std::map<std::pair<int, std::string>, std::uint64_t> counts_of(const MergedCounts& merged) {
    std::map<std::pair<int, std::string>, std::uint64_t> counts;
    merged.counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        counts[{group, format_key(unpack_key(key))}] = count;
    });
    return counts;
}

std::string merge_error(const std::vector<fs::path>& files, std::optional<int> bin_width = {}) {
    try {
        merge_count_files(files, bin_width);
    } catch (const wdl::Error& error) {
        return error.what();
    }
    return "";
}

const std::string kGroupedHeader =
    R"j({"format": "wdlfit-grouped-counts", "version": 1, "groupBy": "game", "groups": 2, )j";

}  // namespace

TEST_CASE("plain count files add key by key", "[counts][merge]") {
    auto a = write_input("a.json", R"j({"('W', 12, 62, 35)": 4, "('D', 1, 78, -5)": 2})j");
    auto b = write_input("b.json", R"j({"('W', 12, 62, 35)": 3, "('L', 3, 40, 1001)": 7})j");
    auto empty = write_input("empty.json", "{}");
    auto merged = merge_count_files({a, b, empty});
    auto counts = counts_of(merged);
    CHECK(counts.size() == 3);
    CHECK(counts[{0, "('W', 12, 62, 35)"}] == 7);
    CHECK(counts[{0, "('D', 1, 78, -5)"}] == 2);
    CHECK(counts[{0, "('L', 3, 40, 1001)"}] == 7);
    CHECK(merged.positions == 16);
    CHECK_FALSE(merged.grouping);
    CHECK(merged.bin_width == 5);  // 35 and -5; the mate score 1001 is left out
    REQUIRE(merged.inputs.size() == 3);
    CHECK(merged.inputs[0].keys == 2);
    CHECK(merged.inputs[1].positions == 10);
    CHECK(merged.inputs[1].eval_step == 35);  // the mate left out: too few evals to tell
    CHECK(merged.inputs[2].positions == 0);
}

TEST_CASE("grouped count files add group by group", "[counts][merge][groups]") {
    auto a = write_input("ga.json",
                         kGroupedHeader + R"j("keys": ["('D', 1, 78, -5)", "('W', 12, 62, 35)"],
        "counts": [[0, 2, 1, 1], [1, 4]]})j");
    auto b = write_input("gb.json", kGroupedHeader + R"j("keys": ["('W', 12, 62, 35)"],
        "counts": [[], [0, 6]]})j");
    auto merged = merge_count_files({a, b});
    REQUIRE(merged.grouping);
    CHECK(merged.grouping->groups == 2);
    auto counts = counts_of(merged);
    CHECK(counts[{0, "('D', 1, 78, -5)"}] == 2);
    CHECK(counts[{0, "('W', 12, 62, 35)"}] == 1);
    CHECK(counts[{1, "('W', 12, 62, 35)"}] == 10);
    CHECK(merged.positions == 13);
}

TEST_CASE("plain and grouped files, or different groups, are not merged", "[counts][merge]") {
    auto plain = write_input("kind_plain.json", R"j({"('W', 12, 62, 35)": 4})j");
    auto grouped =
        write_input("kind_grouped.json", kGroupedHeader + R"j("keys": [], "counts": [[], []]})j");
    auto other =
        write_input("kind_other.json", R"j({"format": "wdlfit-grouped-counts", "version": 1,
        "groupBy": "test", "groups": 2, "keys": [], "counts": [[], []]})j");
    CHECK_THAT(merge_error({plain, grouped}), Catch::Contains("cannot merge") &&
                                                  Catch::Contains("kind_grouped.json") &&
                                                  Catch::Contains("a plain count file"));
    CHECK_THAT(merge_error({grouped, other}),
               Catch::Contains("2 groups by test") && Catch::Contains("2 groups by game"));
}

// A count file of `evals` evals in steps of `step` from `first` on.
fs::path binned_input(const std::string& name, int step, int first, int evals) {
    std::string json = "{";
    for (int i = 0; i < evals; ++i)
        json += (i ? ", " : "") + std::string("\"('W', 12, 62, ") +
                std::to_string(first + i * step) + ")\": 1";
    return write_input(name, json + "}");
}

TEST_CASE("files binned with different widths are refused unless one is asserted",
          "[counts][merge]") {
    auto fives = binned_input("bin5.json", 5, 5, 16);
    auto tens = binned_input("bin10.json", 10, 10, 16);
    auto few_tens = binned_input("few10.json", 10, 10, 15);
    auto ones = binned_input("bin1.json", 1, 1, 3);
    CHECK_THAT(merge_error({fives, tens}),
               Catch::Contains("bin5.json and") && Catch::Contains("bin10.json") &&
                   Catch::Contains("multiples of 5 against 10") && Catch::Contains("--binWidth"));
    // 15 evals in steps of 10 are no proof of a width of 10: chance would show them too.
    CHECK(merge_count_files({fives, few_tens}).bin_width == 5);
    CHECK(merge_count_files({fives, tens}, 5).bin_width == 5);
    CHECK_THAT(
        merge_error({fives, ones}, 5),
        Catch::Contains("bin1.json") && Catch::Contains("not all multiples of --binWidth 5"));
}

TEST_CASE("a broken or missing input is an error naming it", "[counts][merge]") {
    auto good = write_input("good.json", R"j({"('W', 12, 62, 35)": 4})j");
    auto bad = write_input("bad_key.json", R"j({"('X', 12, 62, 35)": 4})j");
    CHECK_THAT(merge_error({good, bad}), Catch::Contains("bad_key.json"));
    auto wrapping = write_input("wrapping.json", R"j({"('W', 10, 19, 1666890004)": 1})j");
    CHECK_THAT(merge_error({good, wrapping}), Catch::Contains("wrapping.json") &&
                                                  Catch::Contains("1666890004") &&
                                                  Catch::Contains("outside what count files hold"));
    CHECK_THAT(merge_error({good, "no_such_counts.json"}), Catch::Contains("no_such_counts.json"));
    CHECK_THAT(merge_error({}), Catch::Contains("no count files"));
}

TEST_CASE("sums beyond the 63 bits of count files are refused", "[counts][merge]") {
    auto largest = std::to_string(std::numeric_limits<std::int64_t>::max());
    auto a = write_input("huge_a.json", "{\"('W', 12, 62, 35)\": " + largest + "}");
    auto b = write_input("huge_b.json", R"j({"('W', 12, 62, 35)": 1})j");
    CHECK(merge_count_files({a}).positions ==
          std::uint64_t(std::numeric_limits<std::int64_t>::max()));
    CHECK_THAT(merge_error({a, b}), Catch::Contains("2^63 - 1"));
}

TEST_CASE("a repeated key of a plain input keeps its last count", "[counts][merge]") {
    auto a = write_input("repeated.json", R"j({"('W', 12, 62, 35)": 4, "('W', 12, 62, 35)": 1})j");
    auto merged = merge_count_files({a});
    CHECK(counts_of(merged)[{0, "('W', 12, 62, 35)"}] == 1);
    CHECK(merged.positions == 1);
    CHECK(merged.inputs[0].repeated_keys.size() == 1);
}

namespace {

// A labelled grouped file of two groups per unit, its units as (id, date) and counts as text.
fs::path labelled_input(const std::string& name, const std::string& units,
                        const std::string& counts, int groups) {
    return write_input(name, R"j({"format": "wdlfit-grouped-counts", "version": 1,
        "groupBy": "game", "groups": )j" +
                                 std::to_string(groups) +
                                 R"j(, "labels": {"groupsPerLabel": 2, "units": [)j" + units +
                                 R"j(]}, "keys": ["('W', 12, 62, 35)", "('D', 3, 40, 0)"],
        "counts": )j" + counts + "}");
}

}  // namespace

TEST_CASE("labelled files merge unit by unit, in order of id", "[counts][merge][labels]") {
    auto first =
        labelled_input("labels_first.json", R"j({"id": "bb", "date": "2025-02-01"}, {"id": "cc"})j",
                       "[[0, 1], [1, 2], [0, 3], []]", 4);
    auto second = labelled_input("labels_second.json",
                                 R"j({"id": "aa", "date": "2025-01-01", "threads": 8},
                                     {"id": "bb", "date": "2025-02-01"})j",
                                 "[[0, 5], [], [0, 10], [1, 20]]", 4);
    auto empty = write_input("labels_empty.json", "{}");
    auto merged = merge_count_files({first, empty, second});
    REQUIRE(merged.labels);
    REQUIRE(merged.labels->units.size() == 3);
    CHECK(merged.labels->units[0].id == "aa");
    CHECK(merged.labels->units[0].threads == 8);
    CHECK(merged.labels->units[1].date == "2025-02-01");
    CHECK(merged.labels->units[2].id == "cc");
    REQUIRE(merged.grouping);
    CHECK(merged.grouping->groups == 6);
    // aa: groups 0-1; bb: 2-3 (both files' counts added group by group); cc: 4-5.
    std::map<std::pair<int, std::string>, std::uint64_t> expected{{{0, "('W', 12, 62, 35)"}, 5},
                                                                  {{2, "('W', 12, 62, 35)"}, 11},
                                                                  {{3, "('D', 3, 40, 0)"}, 22},
                                                                  {{4, "('W', 12, 62, 35)"}, 3}};
    CHECK(counts_of(merged) == expected);
    CHECK(merged.positions == 41);

    // Written and read back: the same labels.
    auto path = wdl::testing::scratch_directory() / "wdl_test_count_merge_labels_out.json";
    {
        wdl::util::AtomicFile output(path);
        write_counts(merged.counts, output, &*merged.labels);
    }
    auto report = read_grouped_count_file(path, [](int, const PositionKey&, std::int64_t) {});
    REQUIRE(report.labels);
    CHECK(*report.labels == *merged.labels);
}

TEST_CASE("labelled files that do not go together are not merged", "[counts][merge][labels]") {
    auto labelled =
        labelled_input("labels_a.json", R"j({"id": "aa", "tc": "10+0.1"})j", "[[0, 1], []]", 2);
    auto relabelled =
        labelled_input("labels_b.json", R"j({"id": "aa", "tc": "60+0.6"})j", "[[0, 1], []]", 2);
    auto unlabelled =
        write_input("labels_none.json", kGroupedHeader + R"j("keys": [], "counts": [[], []]})j");
    CHECK_THAT(merge_error({labelled, relabelled}),
               Catch::Contains("label unit \"aa\" differently"));
    CHECK_THAT(merge_error({labelled, unlabelled}),
               Catch::Contains("cannot merge") && Catch::Contains("labelled grouped count file"));
    auto wrong_groups = labelled_input("labels_c.json", R"j({"id": "aa"})j", "[[0, 1]]", 1);
    CHECK_THAT(merge_error({wrong_groups}), Catch::Contains("\"labels\" name 1 units of 2 groups"));
}
