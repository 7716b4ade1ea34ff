#include <fmt/format.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/util/error.hpp"

namespace fs = std::filesystem;
using wdl::counts::PositionKey;

namespace {

fs::path write_temp(const std::string& name, const std::string& content) {
    fs::path path = wdl::testing::scratch_directory() / ("wdl_test_count_file_" + name);
    std::ofstream(path) << content;
    return path;
}

std::map<std::string, std::int64_t> read_all(const fs::path& path,
                                             std::vector<std::string>* repeated_keys = nullptr) {
    std::map<std::string, std::int64_t> counts;
    auto report =
        wdl::counts::read_count_file(path, [&](const PositionKey& key, std::int64_t count) {
            counts[wdl::counts::format_key(key)] += count;
        });
    if (repeated_keys) *repeated_keys = report.repeated_keys;
    return counts;
}

// The reader's own error: the sink keeps nothing, so only the reader can fail.
std::string error_of(const fs::path& path) {
    try {
        wdl::counts::read_count_file(path, [](const PositionKey&, std::int64_t) {});
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("count files are read key by key", "[counts][file]") {
    auto path = write_temp("good.json", R"j({"('W', 12, 62, 35)": 4, "('D', 1, 78, -5)": 0,
        "('L', 3, 40, 1001)": 12345678901})j");
    auto counts = read_all(path);
    CHECK(counts.size() == 3);
    CHECK(counts["('W', 12, 62, 35)"] == 4);
    CHECK(counts["('L', 3, 40, 1001)"] == 12345678901);
    fs::remove(path);
}

TEST_CASE("null and empty objects hold no counts", "[counts][file]") {
    for (const char* text : {"null", "{}", " null\n"}) {
        auto path = write_temp("empty.json", text);
        CHECK(read_all(path).empty());
        fs::remove(path);
    }
}

TEST_CASE("bad count files are errors naming the file and the key", "[counts][file]") {
    struct Case {
        const char* content;
        const char* expected;
    };
    for (auto [content, expected] : {
             Case{R"j({"('W', 1, 40, 5)": 3,)j", "malformed JSON"},
             Case{R"j({"('W', 1, 40, 5)": 3} x)j", "malformed JSON"},
             Case{"[1, 2]",
                  "is no count file: it starts with \"[1, 2]\", where a count file "
                  "(which scoreWDLstat writes) is a JSON object of counts"},
             Case{"hello\nworld", "is no count file: it starts with \"hello\""},
             Case{" \n", "is no count file: it is empty"},
             Case{"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
                  "holds PGN games, not counts: scoreWDLstat --file"},
             Case{R"j({"('X', 1, 40, 5)": 3})j", R"j(key "('X', 1, 40, 5)" is not of the form)j"},
             Case{R"j({"(W, 1, 40)": 3})j", R"j(key "(W, 1, 40)" is not of the form)j"},
             Case{R"j({"('W', 1, 40, 5)": -3})j",
                  R"j(count of key "('W', 1, 40, 5)" is negative)j"},
             Case{R"j({"('W', 1, 40, 5)": 2.5})j", R"j("('W', 1, 40, 5)" is not an integer)j"},
             Case{R"j({"('W', 1, 40, 5)": "7"})j", R"j("('W', 1, 40, 5)" is not an integer)j"},
             Case{R"j({"('W', 10, 40, +-5)": 1})j",
                  R"j(key "('W', 10, 40, +-5)" is not of the form)j"},
             Case{R"j({"('W', 05, 40, 5)": 1})j", R"j(key "('W', 05, 40, 5)" is not of the form)j"},
             Case{R"j({"('W', 1, 40, 5)": 9223372036854775808})j",
                  R"j("('W', 1, 40, 5)" is out of range)j"},
             Case{R"j({"('W', 1, 40, 5)": 99999999999999999999999})j",
                  R"j("('W', 1, 40, 5)" is out of range)j"},
             Case{R"j({"('W', 1, 40, 5)": 1e30})j", R"j("('W', 1, 40, 5)" is out of range)j"},
             Case{R"j({"('W', 1, 40, 5)": -99999999999999999999999})j",
                  R"j("('W', 1, 40, 5)" is negative)j"},
         }) {
        CAPTURE(content);
        auto path = write_temp("bad.json", content);
        auto message = error_of(path);
        CHECK_THAT(message, Catch::Contains(expected));
        CHECK_THAT(message, Catch::Contains(path.string()));
        fs::remove(path);
    }
}

TEST_CASE("a count file that is missing or a folder is an error saying so", "[counts][file]") {
    auto folder = wdl::testing::scratch_directory();
    auto missing = folder / "wdl_test_count_file_missing.json";
    CHECK(error_of(missing) ==
          "cannot read the count file " + missing.string() + ": it does not exist");
    CHECK(error_of(folder) == "cannot read the count file " + folder.string() + ": it is a folder");
}

TEST_CASE("the largest count is read", "[counts][file]") {
    auto path = write_temp("largest.json", R"j({"('W', 1, 40, 5)": 9223372036854775807})j");
    CHECK(read_all(path)["('W', 1, 40, 5)"] == INT64_MAX);
    fs::remove(path);
}

// As Python's json.load: the last count of a key given twice wins. Differently spelled keys
// are different JSON keys, so the counts of both spellings add up.
TEST_CASE("a repeated key keeps its last count and is reported", "[counts][file]") {
    auto path = write_temp("repeated.json", R"j({"('W', 1, 40, 5)": 3, "('D', 1, 40, 5)": 1,
        "('W', 1, 40, 5)": 7, "('W', 1, 40, +5)": 2, "('W', 1, 40, +5)": 4})j");
    std::vector<std::string> repeated;
    auto counts = read_all(path, &repeated);
    CHECK(counts.size() == 2);
    CHECK(counts["('W', 1, 40, 5)"] == 7 + 4);
    CHECK(counts["('D', 1, 40, 5)"] == 1);
    CHECK(repeated == std::vector<std::string>{"('W', 1, 40, 5)", "('W', 1, 40, +5)"});
    fs::remove(path);
}

TEST_CASE("repeated keys whose counts add up beyond 63 bits are an error", "[counts][file]") {
    auto largest = std::to_string(std::numeric_limits<std::int64_t>::max());
    auto path =
        write_temp("repeated_huge.json",
                   "{\"('W', 12, 62, 35)\": " + largest +
                       ", \"('D', 1, 78, -5)\": 1, \"('W', 12, 62, 35)\": " + largest + "}");
    CHECK_THAT(error_of(path), Catch::Contains("more than 2^63 - 1"));
    fs::remove(path);
}

TEST_CASE("many keys given twice each keep their last counts", "[counts][file]") {
    std::string text = "{";
    for (int pass = 0; pass < 2; ++pass) {
        for (int move = 1; move <= 100; ++move) {
            for (int eval = -500; eval <= 500; eval += 5) {
                text += fmt::format("{}\"('L', {}, 50, {})\": {}", text.size() > 1 ? ", " : "",
                                    move, eval, pass + 1);
            }
        }
    }
    auto path = write_temp("twice.json", text + "}");
    std::vector<std::string> repeated;
    auto counts = read_all(path, &repeated);
    CHECK(counts.size() == 100 * 201);
    CHECK(repeated.size() == 100 * 201);
    CHECK(std::all_of(counts.begin(), counts.end(), [](auto& entry) { return entry.second == 2; }));
    fs::remove(path);
}

TEST_CASE("an unreadable file is an error naming it", "[counts][file]") {
    auto message = error_of("/nonexistent/counts.json");
    CHECK_THAT(message, Catch::Contains("/nonexistent/counts.json"));
}

namespace {

// The counts of large_count_file by key text, as written: the reference its readings meet.
std::map<std::string, std::int64_t> large_file_counts() {
    std::map<std::string, std::int64_t> counts;
    for (char result : {'D', 'L', 'W'})
        for (int move = 1; move <= 120; ++move)
            for (int material = 17; material <= 78; material += 3)
                for (int eval = -400; eval <= 400; eval += 20)
                    counts[fmt::format("('{}', {}, {}, {})", result, move, material, eval)] =
                        (move * 7 + eval + 1300) % 13 + 1;
    return counts;
}

// A count file of about 10 MB in the scanners' layout (sorted keys, two-space indent), above
// the size that is read in two halves. `separator` joins the entries.
std::string large_count_file(const std::string& separator = ",\n  ") {
    std::vector<std::string> entries;
    for (const auto& [key, count] : large_file_counts())
        entries.push_back(fmt::format("\"{}\": {}", key, count));
    std::sort(entries.begin(), entries.end());
    std::string text = "{\n  ";
    for (std::size_t i = 0; i < entries.size(); ++i) text += (i ? separator : "") + entries[i];
    return text + "\n}";
}

// Counts by key text, as a target of the two-threaded reading.
class MapTarget : public wdl::counts::CountTarget {
  public:
    void add(const PositionKey& key, std::int64_t count) override {
        counts[wdl::counts::format_key(key)] += count;
    }
    std::unique_ptr<CountTarget> blank_copy() const override {
        return std::make_unique<MapTarget>();
    }
    void merge(const CountTarget& part) override {
        for (const auto& [key, count] : dynamic_cast<const MapTarget&>(part).counts)
            counts[key] += count;
    }

    std::map<std::string, std::int64_t> counts;
};

}  // namespace

TEST_CASE("a large file read in pieces counts as written, into a target or a sink",
          "[counts][counts]") {
    std::string text = large_count_file();
    REQUIRE(text.size() > (std::size_t{8} << 20));
    auto written = large_file_counts();
    // The three ways of reading: the layout parser, two simdjson halves, simdjson in one piece.
    for (const auto& [name, content] :
         {std::pair{"layout of the scanners", text}, std::pair{"one line", large_count_file(", ")},
          std::pair{"no blanks", large_count_file(",")}}) {
        INFO(name);
        auto path = write_temp("large.json", content);
        MapTarget target;
        auto report = wdl::counts::read_count_file(path, target);
        CHECK(report.repeated_keys.empty());
        CHECK(target.counts == written);
        CHECK(read_all(path) == written);
        std::map<std::string, std::int64_t> grouped;
        wdl::counts::read_grouped_count_file(
            path, [&](int group, const PositionKey& key, std::int64_t count) {
                CHECK(group == 0);
                grouped[wdl::counts::format_key(key)] += count;
            });
        CHECK(grouped == written);
        // The file itself is left as it was.
        std::ifstream in(path, std::ios::binary);
        CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == content);
    }
}

TEST_CASE("a large file with a repeated key or an error is read in one piece", "[counts][counts]") {
    std::string text = large_count_file();
    // The last key again, at the start of the second half: out of order, repeated.
    std::size_t last = text.rfind("\"('W'");
    std::string last_entry = text.substr(last, text.find('\n', last) - last);
    std::size_t middle = text.find(",\n  ", text.size() / 2);
    std::string repeated = text.substr(0, middle) + ",\n  " + last_entry + text.substr(middle);
    auto path = write_temp("large_repeated.json", repeated);
    MapTarget target;
    auto report = wdl::counts::read_count_file(path, target);
    REQUIRE(report.repeated_keys.size() == 1);
    CHECK(target.counts == large_file_counts());  // the repeated key keeps its last count
    std::vector<std::string> repeated_keys;
    CHECK(read_all(path, &repeated_keys) == large_file_counts());
    CHECK(repeated_keys.size() == 1);

    std::string broken = text;
    broken.replace(broken.size() - 100, 1, "x");
    auto broken_path = write_temp("large_broken.json", broken);
    MapTarget broken_target;
    CHECK_THROWS_WITH(wdl::counts::read_count_file(broken_path, broken_target),
                      Catch::Contains(broken_path.string()));
}

TEST_CASE("a small file in the scanners' layout, or nearly, counts as the general reader counts",
          "[counts][file]") {
    // The layout's own reader gives up at any deviation, and the general reader takes over.
    auto largest = std::to_string(std::numeric_limits<std::int64_t>::max());
    for (const auto& [name, content] : {
             std::pair{"the layout", std::string("{\n  \"('D', 1, 78, -5)\": 2,\n  \"('W', 12, 62, "
                                                 "35)\": 4\n}\n")},
             std::pair{"no final newline", std::string("{\n  \"('W', 1, 40, 5)\": 0\n}")},
             std::pair{"a key spelled otherwise",
                       std::string("{\n  \"('D', 1, 78, -5)\": 2,\n  \"('W', 1, 40, +5)\": 3\n}")},
             std::pair{"a count of 19 digits",
                       "{\n  \"('D', 1, 78, -5)\": 2,\n  \"('W', 1, 40, 5)\": " + largest + "\n}"},
             std::pair{"keys out of order",
                       std::string("{\n  \"('W', 1, 40, 5)\": 1,\n  \"('D', 1, 78, -5)\": 2\n}")},
         }) {
        INFO(name);
        auto path = write_temp("layout.json", content);
        MapTarget target;
        wdl::counts::read_count_file(path, target);
        CHECK(target.counts == read_all(path));
        CHECK_FALSE(target.counts.empty());
    }
    auto leading_zero = write_temp("layout_zero.json", "{\n  \"('W', 1, 40, 5)\": 05\n}\n");
    MapTarget target;
    CHECK_THROWS_WITH(wdl::counts::read_count_file(leading_zero, target),
                      Catch::Contains(leading_zero.string()));
}

TEST_CASE("count files compressed with gzip or zstd read as the plain file", "[counts][file]") {
    std::string text = R"j({"('W', 12, 62, 35)": 4, "('D', 1, 78, -5)": 2})j";
    auto plain = read_all(write_temp("small.json", text));
    auto gz = wdl::testing::scratch_directory() / "wdl_test_count_file_small.json.gz";
    gzFile file = gzopen(gz.c_str(), "wb");
    REQUIRE(file);
    REQUIRE(gzwrite(file, text.data(), unsigned(text.size())) == int(text.size()));
    gzclose(file);
    CHECK(read_all(gz) == plain);

    auto zst = wdl::testing::scratch_directory() / "wdl_test_count_file_small.json.zst";
    std::string frame(ZSTD_compressBound(text.size()), '\0');
    frame.resize(ZSTD_compress(frame.data(), frame.size(), text.data(), text.size(), 3));
    std::ofstream(zst, std::ios::binary) << frame;
    CHECK(read_all(zst) == plain);

    // A cut compressed file is an error naming the file, never a silently smaller count.
    std::string bytes;
    {
        std::ifstream in(gz, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    std::ofstream(gz, std::ios::binary) << bytes.substr(0, bytes.size() - 6);
    CHECK_THAT(error_of(gz), Catch::Contains(gz.string()) && Catch::Contains("damaged"));
}

TEST_CASE("written count files read back to the same counts", "[counts][file]") {
    wdl::counts::CountMap counts;
    std::map<std::string, std::int64_t> expected;
    for (int i = 0; i < 5000; ++i) {
        PositionKey key{wdl::counts::Outcome(i % 3), 1 + i % 97, 17 + i % 61, 5 * (i % 41) - 100};
        counts.add(wdl::counts::pack_key(key), std::uint64_t(1 + i % 7));
        expected[wdl::counts::format_key(key)] += 1 + i % 7;
    }
    auto path = wdl::testing::scratch_directory() / "wdl_test_count_file_written.json";
    {
        wdl::util::AtomicFile output(path);
        wdl::counts::write_count_file(counts, output);
    }
    CHECK(read_all(path) == expected);
    // Formatted in pieces on threads: the same bytes.
    auto threaded = wdl::testing::scratch_directory() / "wdl_test_count_file_threads.json";
    {
        wdl::util::AtomicFile output(threaded);
        wdl::counts::write_count_file(counts, output, 3);
    }
    CHECK(wdl::testing::read_text_file(threaded) == wdl::counts::count_file_text(counts));
    CHECK(wdl::testing::read_text_file(path) == wdl::counts::count_file_text(counts));
    fs::remove(threaded);
    CHECK(wdl::counts::count_file_text(wdl::counts::CountMap()) == "{}");
}

TEST_CASE("a count file large enough to be sorted in parts on threads is the same file",
          "[counts][file]") {
    // More keys than a map needs to be listed and sorted in parts: the parts merge into the
    // order of the keys as spelled, the same bytes as on one thread.
    wdl::counts::CountMap counts;
    for (int i = 0; i < 90000; ++i) {
        PositionKey key{wdl::counts::Outcome(i % 3), 1 + i % 409, i % 79, 7 * (i % 1009) - 3000};
        counts.add(wdl::counts::pack_key(key), std::uint64_t(1 + i % 5));
    }
    REQUIRE(counts.distinct_keys() > 70000);
    const std::string one_thread = wdl::counts::count_file_text(counts);
    // One line a key, in the order of the spelled keys.
    std::vector<std::string> spelled;
    for (std::size_t quote = one_thread.find("\n  \""); quote != std::string::npos;
         quote = one_thread.find("\n  \"", quote + 1)) {
        spelled.push_back(
            one_thread.substr(quote + 4, one_thread.find('"', quote + 4) - quote - 4));
    }
    CHECK(spelled.size() == counts.distinct_keys());
    CHECK(std::ranges::adjacent_find(spelled, std::greater_equal<>()) == spelled.end());
    for (int threads : {2, 3}) {
        auto path = wdl::testing::scratch_directory() / "wdl_test_count_file_parts.json";
        {
            wdl::util::AtomicFile output(path);
            wdl::counts::write_count_file(counts, output, threads);
        }
        CHECK(wdl::testing::read_text_file(path) == one_thread);
        fs::remove(path);
    }
}

namespace {

using wdl::counts::Grouping;

// Counts per "group/key" of a file read with its groups.
std::map<std::string, std::int64_t> read_grouped(const fs::path& path,
                                                 wdl::counts::CountFileReport* report = nullptr) {
    std::map<std::string, std::int64_t> counts;
    auto result = wdl::counts::read_grouped_count_file(
        path, [&](int group, const PositionKey& key, std::int64_t count) {
            counts[std::to_string(group) + "/" + wdl::counts::format_key(key)] += count;
        });
    if (report) *report = result;
    return counts;
}

std::string grouped_error_of(const std::string& name, const std::string& content) {
    auto path = write_temp(name, content);
    std::string message;
    try {
        read_grouped(path);
    } catch (const wdl::Error& error) {
        message = error.what();
    }
    fs::remove(path);
    return message;
}

}  // namespace

TEST_CASE("grouped count files are read group by group, and summed by plain readers",
          "[counts][file][groups]") {
    Grouping grouping{wdl::counts::GroupBy::Test, 3};
    wdl::counts::GroupedCounts counts(grouping);
    auto key = [](const char* text) {
        return wdl::counts::pack_key(*wdl::counts::parse_key(text));
    };
    counts.add(key("('W', 12, 62, 35)"), 0, 4);
    counts.add(key("('W', 12, 62, 35)"), 2, 1);
    counts.add(key("('L', 3, 40, -5)"), 2, 7);
    std::string bytes = wdl::counts::grouped_count_file_bytes(counts);
    CHECK(bytes.substr(0, bytes.find('\n') + 1) ==
          "{\"format\": \"wdlfit-grouped-counts\", \"version\": 2, \"groupBy\": \"test\", "
          "\"groups\": 3, \"keys\": 2, \"cells\": 3, \"blocks\": 1}\n");
    // Version 2 as written, and the same counts as version 1 (JSON), which is still read.
    const std::string version_1 =
        "{\n  \"format\": \"wdlfit-grouped-counts\",\n  \"version\": 1,\n  \"groupBy\": \"test\",\n"
        "  \"groups\": 3,\n  \"keys\": [\n    \"('L', 3, 40, -5)\",\n    \"('W', 12, 62, 35)\"\n  "
        "],\n  \"counts\": [\n    [1, 4],\n    [],\n    [0, 7, 1, 1]\n  ]\n}";
    for (const std::string& content : {bytes, version_1}) {
        auto path = write_temp("grouped.json", content);
        wdl::counts::CountFileReport report;
        auto grouped = read_grouped(path, &report);
        CHECK(grouped == std::map<std::string, std::int64_t>{{"0/('W', 12, 62, 35)", 4},
                                                             {"2/('L', 3, 40, -5)", 7},
                                                             {"2/('W', 12, 62, 35)", 1}});
        REQUIRE(report.grouping);
        CHECK(*report.grouping == grouping);
        CHECK(report.repeated_keys.empty());
        CHECK(read_all(path) == std::map<std::string, std::int64_t>{{"('W', 12, 62, 35)", 5},
                                                                    {"('L', 3, 40, -5)", 7}});
        fs::remove(path);
    }
    // No counts: no keys, no blocks.
    auto empty_path = write_temp("grouped_empty.json",
                                 wdl::counts::grouped_count_file_bytes(
                                     wdl::counts::GroupedCounts({wdl::counts::GroupBy::Game, 1})));
    wdl::counts::CountFileReport empty_report;
    CHECK(read_grouped(empty_path, &empty_report).empty());
    CHECK(empty_report.grouping == Grouping{wdl::counts::GroupBy::Game, 1});
    fs::remove(empty_path);
}

namespace {

// Counts of every kind a grouped file holds: keys in one group and in all, counts past a
// cell's 8 bits, groups beyond the first 64, and a key whose groups are a bitmap.
wdl::counts::GroupedCounts varied_counts(int groups) {
    wdl::counts::GroupedCounts counts(Grouping{wdl::counts::GroupBy::Game, groups});
    for (int move = 1; move <= 60; ++move) {
        for (int eval = -300; eval <= 300; eval += 10) {
            auto key = wdl::counts::pack_key(
                {wdl::counts::Outcome(std::abs(eval / 10) % 3), move, 40 + move % 30, eval});
            int every = 1 + (move * 7 + eval) % 13;
            if (every < 1) every += 13;
            for (int group = move % groups; group < groups; group += every)
                counts.add(key, group, std::uint64_t(1 + (move * eval) % 300 + 300));
        }
    }
    return counts;
}

std::map<std::string, std::int64_t> cell_texts_of(const wdl::counts::GroupedCounts& counts) {
    std::map<std::string, std::int64_t> cells;
    counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        cells[std::to_string(group) + "/" +
              wdl::counts::format_key(wdl::counts::unpack_key(key))] += std::int64_t(count);
    });
    return cells;
}

}  // namespace

TEST_CASE("version 2 files read back to the counts written, whatever the threads writing them",
          "[counts][file][groups]") {
    for (int groups : {1, 7, 64, 200}) {
        INFO(groups << " groups");
        auto counts = varied_counts(groups);
        auto bytes = wdl::counts::grouped_count_file_bytes(counts);
        CHECK(wdl::counts::grouped_count_file_bytes(counts, nullptr, 4) == bytes);
        auto path = write_temp("varied.json", bytes);
        wdl::counts::CountFileReport report;
        CHECK(read_grouped(path, &report) == cell_texts_of(counts));
        CHECK(report.grouping == counts.grouping());
        fs::remove(path);
    }
}

TEST_CASE("a grouped file with enough blocks to be sorted in parts is the same on threads",
          "[counts][file][groups]") {
    // Over 65536 blocks (a key has one or two): sorted in parts on the threads, merged in order.
    wdl::counts::GroupedCounts counts(Grouping{wdl::counts::GroupBy::Game, 100});
    for (int i = 0; i < 70000; ++i) {
        auto key = wdl::counts::pack_key(
            {wdl::counts::Outcome(i % 3), 1 + i % 211, i % 79, 3 * (i % 997) - 1500});
        counts.add(key, i % 100, std::uint64_t(1 + i % 7));
        counts.add(key, (i * 37 + 64) % 100, 2);  // often a second block of the same key
    }
    REQUIRE(counts.distinct_keys() == 70000);
    auto bytes = wdl::counts::grouped_count_file_bytes(counts);
    for (int threads : {2, 3})
        CHECK(wdl::counts::grouped_count_file_bytes(counts, nullptr, threads) == bytes);
    auto path = write_temp("many_blocks.json", bytes);
    CHECK(read_grouped(path) == cell_texts_of(counts));
    fs::remove(path);
}

TEST_CASE("version 2 files carry their labels", "[counts][file][groups]") {
    wdl::counts::GroupLabels labels;
    labels.groups_per_label = 2;
    labels.units.resize(2);
    labels.units[0].id = "65a1b2";
    labels.units[0].date = "2024-01-31";
    labels.units[1].id = "t\xff";  // not UTF-8: replaced, never a failure
    labels.units[1].threads = 8;
    wdl::counts::GroupedCounts counts(Grouping{wdl::counts::GroupBy::Game, 4});
    counts.add(wdl::counts::pack_key({wdl::counts::Outcome::Win, 3, 40, 10}), 3, 2);
    auto path = write_temp("labelled.json", wdl::counts::grouped_count_file_bytes(counts, &labels));
    wdl::counts::CountFileReport report;
    CHECK(read_grouped(path, &report) ==
          std::map<std::string, std::int64_t>{{"3/('W', 3, 40, 10)", 2}});
    REQUIRE(report.labels);
    CHECK(report.labels->groups_per_label == 2);
    CHECK(report.labels->units[0] == labels.units[0]);
    CHECK(report.labels->units[1].threads == 8);
    fs::remove(path);
    wdl::counts::GroupLabels too_few = labels;
    too_few.units.pop_back();
    CHECK_THROWS_AS(wdl::counts::grouped_count_file_bytes(counts, &too_few), std::invalid_argument);
}

TEST_CASE("a damaged version 2 file is an error naming the file and the block, never a crash",
          "[counts][file][groups]") {
    auto bytes = wdl::counts::grouped_count_file_bytes(varied_counts(64));
    const std::size_t body = bytes.find('\n') + 1;
    REQUIRE(bytes.size() > body + 100);
    auto error_for = [](const std::string& content) {
        return grouped_error_of("damaged_v2.json", content);
    };
    // Cut anywhere: in the header line, a block's header or its body.
    for (std::size_t cut : {body / 2, body + 1, body + 50, bytes.size() - 1}) {
        CAPTURE(cut);
        auto message = error_for(bytes.substr(0, cut));
        CHECK_THAT(message, Catch::Contains("damaged_v2.json"));
    }
    CHECK_THAT(error_for(bytes.substr(0, bytes.size() - 1)), Catch::Contains("block 0"));
    std::string flipped = bytes;
    flipped[bytes.size() - 10] = char(flipped[bytes.size() - 10] ^ 0x10);
    CHECK_THAT(error_for(flipped), Catch::Contains("checksum"));
    CHECK_THAT(error_for(bytes + "x"), Catch::Contains("bytes follow its 1 blocks"));
    std::string wrong_total = bytes;
    wrong_total.replace(wrong_total.find("\"cells\": "), 9, "\"cells\": 1");
    CHECK_THAT(error_for(wrong_total), Catch::Contains("but its header says"));
    std::string no_groups = bytes;
    no_groups.replace(no_groups.find("\"groups\": 64"), 12, "\"groups\": 0 ");
    CHECK_THAT(error_for(no_groups), Catch::Contains("\"groups\" must be 1 to 65536"));
    // Every byte of the body changed in turn: an error or other counts, never a crash.
    for (std::size_t at = body; at < std::min(bytes.size(), body + 400); ++at) {
        std::string changed = bytes;
        changed[at] = char(~changed[at]);
        auto path = write_temp("changed_v2.json", changed);
        try {
            read_grouped(path);
        } catch (const wdl::Error&) {
        }
        fs::remove(path);
    }
}

TEST_CASE("a plain file is one group to grouped readers", "[counts][file][groups]") {
    auto path = write_temp("plain_as_grouped.json", R"j({"('W', 12, 62, 35)": 4})j");
    wdl::counts::CountFileReport report;
    CHECK(read_grouped(path, &report) ==
          std::map<std::string, std::int64_t>{{"0/('W', 12, 62, 35)", 4}});
    CHECK_FALSE(report.grouping);
    fs::remove(path);
}

TEST_CASE("a grouped file is recognized by its content, in any field order, and its counts add",
          "[counts][file][groups]") {
    auto path = write_temp("sorted_header.json", R"j({"counts": [[0, 2, 1, 3, 0, 1], []],
        "format": "wdlfit-grouped-counts", "groupBy": "game", "groups": 2,
        "keys": ["('D', 1, 78, 0)", " ( 'W', 2, 70, +5 ) "], "version": 1})j");
    wdl::counts::CountFileReport report;
    CHECK(read_grouped(path, &report) ==
          std::map<std::string, std::int64_t>{{"0/('D', 1, 78, 0)", 3}, {"0/('W', 2, 70, 5)", 3}});
    CHECK(report.grouping == Grouping{wdl::counts::GroupBy::Game, 2});
    CHECK(report.repeated_keys.empty());
    fs::remove(path);
}

TEST_CASE("a grouped file's header, keys and counts must agree", "[counts][file][groups]") {
    const std::string good =
        R"j("format": "wdlfit-grouped-counts", "version": 1, "groupBy": "game")j";
    const std::string keys = R"j("keys": ["('W', 1, 2, 3)"])j";
    auto file = [&](const std::string& fields) { return "{" + fields + "}"; };
    CHECK(grouped_error_of("g0.json",
                           file(good + ", \"groups\": 1, " + keys + R"j(, "counts": [[0, 1]])j"))
              .empty());
    for (auto [content, problem] : std::vector<std::pair<std::string, std::string>>{
             {file(R"j("format": "other", "version": 1, "groupBy": "game", "groups": 1, )j" + keys +
                   R"j(, "counts": [[0, 1]])j"),
              "\"format\": \"wdlfit-grouped-counts\""},
             {file(R"j("format": "wdlfit-grouped-counts", "version": 2, "groupBy": "game",
                       "groups": 1, )j" +
                   keys + R"j(, "counts": [[0, 1]])j"),
              "its header line is not JSON"},
             {file(good + R"j(, "groups": 2, )j" + keys + R"j(, "counts": [[0, 1]])j"),
              "\"groups\" must be the number of lists"},
             {file(R"j("format": "wdlfit-grouped-counts", "version": 1, "groupBy": "engine",
                       "groups": 1, )j" +
                   keys + R"j(, "counts": [[0, 1]])j"),
              "\"groupBy\""},
             {file(good + R"j(, "groups": 1, )j" + keys +
                   R"j(, "counts": [[0, 1]], "('W', 5, 6, 7)": 3)j"),
              "no keys beside its header"},
             {file(good + R"j(, "groups": 1, )j" + keys + R"j(, "counts": [[1, 1]])j"),
              "names key number 1, but \"keys\" has 1"},
             {file(good + R"j(, "groups": 1, )j" + keys + R"j(, "counts": [[0]])j"),
              "without its count"},
             {file(good + R"j(, "groups": 1, )j" + keys + R"j(, "counts": [[0, -1]])j"),
              "non-negative integers"},
             {file(good + R"j(, "groups": 1, )j" + keys +
                   R"j(, "counts": [{"('W', 1, 2, 3)": 1}])j"),
              "entry 0 of \"counts\" is not a list"},
             {file(good + R"j(, "groups": 1, "keys": ["('W', 1, 2)"], "counts": [[0, 1]])j"),
              "is not of the form"},
             {file(good + R"j(, "groups": "1", )j" + keys + R"j(, "counts": [[0, 1]])j"),
              "must be an integer"},
             {file(good + R"j(, "groups": 1, "counts": [[0, 1]])j"), "needs \"keys\""},
             {file(good + R"j(, "groups": 1, )j" + keys), "needs \"counts\""}}) {
        CAPTURE(content);
        auto message = grouped_error_of("bad_group.json", content);
        CHECK_THAT(message, Catch::Contains("bad_group.json"));
        CHECK_THAT(message, Catch::Contains(problem));
    }
}

namespace {

// Records what a count target receives.
class RecordingTarget : public wdl::counts::CountTarget {
  public:
    std::map<std::string, std::int64_t> plain, grouped;

    void add(const PositionKey& key, std::int64_t count) override {
        plain[wdl::counts::format_key(key)] += count;
    }
    void add_to_group(int group, const PositionKey& key, std::int64_t count) override {
        grouped[std::to_string(group) + "/" + wdl::counts::format_key(key)] += count;
    }
    std::unique_ptr<CountTarget> blank_copy() const override {
        return std::make_unique<RecordingTarget>();
    }
    void merge(const CountTarget& part) override {
        const auto& other = dynamic_cast<const RecordingTarget&>(part);
        for (const auto& [key, count] : other.plain) plain[key] += count;
        for (const auto& [key, count] : other.grouped) grouped[key] += count;
    }
};

}  // namespace

namespace {

// The counts in version 1 of grouped files, JSON, as wdlfit wrote it before version 2.
std::string version_1_text(const wdl::counts::GroupedCounts& counts) {
    std::map<std::uint64_t, std::size_t> numbers;
    counts.for_each([&](std::uint64_t key, int, std::uint64_t) { numbers.emplace(key, 0); });
    std::string text = fmt::format(
        "{{\n  \"format\": \"wdlfit-grouped-counts\",\n  \"version\": 1,\n  \"groupBy\": "
        "\"game\",\n  \"groups\": {},\n  \"keys\": [",
        counts.grouping().groups);
    std::size_t number = 0;
    for (auto& [key, key_number] : numbers) {
        key_number = number;
        text += fmt::format("{}\n    \"{}\"", number++ == 0 ? "" : ",",
                            wdl::counts::format_key(wdl::counts::unpack_key(key)));
    }
    std::vector<std::string> lists(std::size_t(counts.grouping().groups));
    counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        auto& list = lists[std::size_t(group)];
        list += fmt::format("{}{}, {}", list.empty() ? "" : ", ", numbers[key], count);
    });
    text += "\n  ],\n  \"counts\": [";
    for (std::size_t group = 0; group < lists.size(); ++group)
        text += fmt::format("{}\n    [{}]", group == 0 ? "" : ",", lists[group]);
    return text + "\n  ]\n}";
}

}  // namespace

// Large files are read in pieces on two threads: a version 2 file block by block, and a
// version 1 file (JSON) not as the halves of a plain file.
TEST_CASE("a large grouped file reaches a count target group by group", "[counts][file][groups]") {
    Grouping grouping{wdl::counts::GroupBy::Game, 10};
    wdl::counts::GroupedCounts counts(grouping);
    std::size_t cells = 0;
    for (int move = 1; move <= 200; ++move)
        for (int material = 0; material <= 78; ++material)
            for (int eval = -100; eval <= 100; eval += 10, ++cells)
                counts.add(wdl::counts::pack_key({wdl::counts::Outcome::Win, move, material, eval}),
                           (move + eval + 700) % 7 + 3, std::uint64_t(material + 1));
    auto version_2 = wdl::counts::grouped_count_file_bytes(counts);
    REQUIRE(version_2.size() > (std::size_t{1} << 20));  // read in two pieces
    auto version_1 = version_1_text(counts);
    REQUIRE(version_1.size() > (std::size_t{8} << 20));
    for (const auto& content : {version_2, version_1}) {
        auto path = write_temp("large_grouped.json", content);
        RecordingTarget target;
        auto report = wdl::counts::read_count_file(path, target);
        CHECK(report.grouping == grouping);
        CHECK(target.plain.empty());
        CHECK(target.grouped == read_grouped(path));
        CHECK(target.grouped.size() == cells);
        fs::remove(path);
    }
}
