#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "wdl/model/count_file.hpp"

namespace fs = std::filesystem;
using wdl::model::PositionKey;

namespace {

fs::path write_temp(const std::string& name, const std::string& content) {
    fs::path path = fs::temp_directory_path() / ("wdl_test_count_file_" + name);
    std::ofstream(path) << content;
    return path;
}

std::map<std::string, std::int64_t> read_all(const fs::path& path) {
    std::map<std::string, std::int64_t> counts;
    wdl::model::read_count_file(path, [&](const PositionKey& key, std::int64_t count) {
        counts[wdl::model::format_key(key)] += count;
    });
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
         }) {
        CAPTURE(content);
        auto path = write_temp("bad.json", content);
        auto message = error_of(path);
        CHECK_THAT(message, Catch::Contains(expected));
        CHECK_THAT(message, Catch::Contains(path.string()));
        fs::remove(path);
    }
}

TEST_CASE("an unreadable file is an error naming it", "[model][file]") {
    auto message = error_of("/nonexistent/counts.json");
    CHECK_THAT(message, Catch::Contains("/nonexistent/counts.json"));
}
