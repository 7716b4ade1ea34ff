#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "wdl/model/count_file.hpp"

namespace fs = std::filesystem;
using wdl::model::PositionKey;

namespace {

fs::path write_temp(const std::string& name, const std::string& content) {
    fs::path path = fs::temp_directory_path() / ("wdl_test_count_file_" + name);
    std::ofstream(path) << content;
    return path;
}

std::map<std::string, std::int64_t> read_all(const fs::path& path,
                                             std::vector<std::string>* repeated_keys = nullptr) {
    std::map<std::string, std::int64_t> counts;
    auto report =
        wdl::model::read_count_file(path, [&](const PositionKey& key, std::int64_t count) {
            counts[wdl::model::format_key(key)] += count;
        });
    if (repeated_keys) *repeated_keys = report.repeated_keys;
    return counts;
}

std::string error_of(const fs::path& path) {
    try {
        read_all(path);
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("count files are read key by key", "[model][file]") {
    auto path = write_temp("good.json", R"j({"('W', 12, 62, 35)": 4, "('D', 1, 78, -5)": 0,
        "('L', 3, 40, 1001)": 12345678901})j");
    auto counts = read_all(path);
    CHECK(counts.size() == 3);
    CHECK(counts["('W', 12, 62, 35)"] == 4);
    CHECK(counts["('L', 3, 40, 1001)"] == 12345678901);
    fs::remove(path);
}

TEST_CASE("null and empty objects hold no counts", "[model][file]") {
    for (const char* text : {"null", "{}", " null\n"}) {
        auto path = write_temp("empty.json", text);
        CHECK(read_all(path).empty());
        fs::remove(path);
    }
}

TEST_CASE("bad count files are errors naming the file and the key", "[model][file]") {
    struct Case {
        const char* content;
        const char* expected;
    };
    for (auto [content, expected] : {
             Case{R"j({"('W', 1, 40, 5)": 3,)j", "malformed JSON"},
             Case{R"j({"('W', 1, 40, 5)": 3} x)j", "malformed JSON"},
             Case{"[1, 2]", "malformed JSON"},
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

TEST_CASE("the largest count is read", "[model][file]") {
    auto path = write_temp("largest.json", R"j({"('W', 1, 40, 5)": 9223372036854775807})j");
    CHECK(read_all(path)["('W', 1, 40, 5)"] == INT64_MAX);
    fs::remove(path);
}

// As Python's json.load: the last count of a key given twice wins. Differently spelled keys
// are different JSON keys, so the counts of both spellings add up.
TEST_CASE("a repeated key keeps its last count and is reported", "[model][file]") {
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

TEST_CASE("many keys given twice each keep their last counts", "[model][file]") {
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

TEST_CASE("an unreadable file is an error naming it", "[model][file]") {
    auto message = error_of("/nonexistent/counts.json");
    CHECK_THAT(message, Catch::Contains("/nonexistent/counts.json"));
}

namespace {

// A count file of about 10 MB in the scanners' layout (sorted keys, two-space indent), above
// the size that is read in two halves. `separator` joins the entries.
std::string large_count_file(const std::string& separator = ",\n  ") {
    std::vector<std::string> entries;
    for (char result : {'D', 'L', 'W'})
        for (int move = 1; move <= 120; ++move)
            for (int material = 17; material <= 78; material += 3)
                for (int eval = -400; eval <= 400; eval += 20)
                    entries.push_back(fmt::format("\"('{}', {}, {}, {})\": {}", result, move,
                                                  material, eval,
                                                  (move * 7 + eval + 1300) % 13 + 1));
    std::sort(entries.begin(), entries.end());
    std::string text = "{\n  ";
    for (std::size_t i = 0; i < entries.size(); ++i) text += (i ? separator : "") + entries[i];
    return text + "\n}";
}

wdl::model::CountGrid empty_grid() {
    wdl::model::GridFilter filter;
    filter.move_max = 200;
    return wdl::model::CountGrid(filter, wdl::model::Normalization::fixed(100));
}

bool same_cells(const wdl::model::CountGrid& x, const wdl::model::CountGrid& y) {
    for (int mom = x.mom_min(); mom <= x.mom_max(); ++mom)
        for (int eval = -x.eval_max(); eval <= x.eval_max(); ++eval) {
            const auto &a = x.at(mom, eval), &b = y.at(mom, eval);
            if (a.wins != b.wins || a.draws != b.draws || a.losses != b.losses) return false;
        }
    return true;
}

wdl::model::CountGrid read_sequentially(const fs::path& path) {
    auto grid = empty_grid();
    wdl::model::read_count_file(
        path, [&](const PositionKey& key, std::int64_t count) { grid.add(key, count); });
    return grid;
}

}  // namespace

TEST_CASE("a large file read in two halves counts as read in one piece", "[model][counts]") {
    std::string text = large_count_file();
    REQUIRE(text.size() > (std::size_t{8} << 20));
    for (const auto& [name, content] :
         {std::pair{"layout of the scanners", text}, std::pair{"one line", large_count_file(", ")},
          std::pair{"no blanks", large_count_file(",")}}) {
        INFO(name);
        auto path = write_temp("large.json", content);
        auto grid = empty_grid();
        auto report = wdl::model::add_count_file(path, grid);
        CHECK(report.repeated_keys.empty());
        CHECK(grid.totals().total() > 0);
        CHECK(same_cells(grid, read_sequentially(path)));
        // The file itself is left as it was.
        std::ifstream in(path, std::ios::binary);
        CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == content);
    }
}

TEST_CASE("a large file with a repeated key or an error is read in one piece", "[model][counts]") {
    std::string text = large_count_file();
    // The last key again, at the start of the second half: out of order, repeated.
    std::size_t last = text.rfind("\"('W'");
    std::string last_entry = text.substr(last, text.find('\n', last) - last);
    std::size_t middle = text.find(",\n  ", text.size() / 2);
    std::string repeated = text.substr(0, middle) + ",\n  " + last_entry + text.substr(middle);
    auto path = write_temp("large_repeated.json", repeated);
    auto grid = empty_grid();
    auto report = wdl::model::add_count_file(path, grid);
    REQUIRE(report.repeated_keys.size() == 1);
    CHECK(same_cells(grid, read_sequentially(write_temp("large_plain.json", text))));

    std::string broken = text;
    broken.replace(broken.size() - 100, 1, "x");
    auto broken_path = write_temp("large_broken.json", broken);
    auto broken_grid = empty_grid();
    CHECK_THROWS_WITH(wdl::model::add_count_file(broken_path, broken_grid),
                      Catch::Contains(broken_path.string()));
}
