#include <zstd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "program_runner.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/util/error.hpp"

namespace fs = std::filesystem;
using namespace wdl::counts;

namespace {

fs::path scratch(const std::string& name) {
    return wdl::testing::scratch_directory() / ("wdl_test_human_counts_" + name);
}

std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_text(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

HumanCell cell(Outcome result, int move, int material, int eval, int rating, int opponent,
               SpeedClass speed, int group, std::uint64_t count) {
    return HumanCell{HumanKey{PositionKey{result, move, material, eval}, rating, opponent, speed},
                     group, count};
}

// Cells in the writer's order, over every field's extremes (mates, a negative eval, the
// largest move and material a key packs, every speed class).
HumanCounts sample_counts() {
    HumanCounts counts;
    counts.groups = 3;
    counts.cells = {
        cell(Outcome::Win, 12, 62, -35, 1525, 1475, SpeedClass::Rapid, 0, 3),
        cell(Outcome::Win, 12, 62, -35, 1525, 1475, SpeedClass::Rapid, 2, 1),
        cell(Outcome::Win, 12, 62, -35, 1525, 1475, SpeedClass::Correspondence, 1, 5),
        cell(Outcome::Win, 12, 62, 35, 825, 2775, SpeedClass::UltraBullet, 1, 17),
        cell(Outcome::Draw, 1, 78, 0, 1525, 1525, SpeedClass::Classical, 0, 1),
        cell(Outcome::Loss, 40, 10, -kMateEval, 2025, 1975, SpeedClass::Blitz, 2,
             std::uint64_t{1} << 40),
        cell(Outcome::Loss, 65535, 255, kMateEval, 2025, 1975, SpeedClass::Bullet, 0, 2),
    };
    std::sort(counts.cells.begin(), counts.cells.end(), [](const HumanCell& a, const HumanCell& b) {
        const HumanKey &x = a.key, &y = b.key;
        return std::tuple(x.position.result, x.position.move, x.position.material, x.position.eval,
                          x.rating, x.opponent_rating, x.speed, a.group) <
               std::tuple(y.position.result, y.position.move, y.position.material, y.position.eval,
                          y.rating, y.opponent_rating, y.speed, b.group);
    });
    return counts;
}

// The file with its line `number` (1 is the header) replaced.
std::string with_line(const std::string& text, std::size_t number, const std::string& line) {
    std::size_t begin = 0;
    for (std::size_t i = 1; i < number; ++i) begin = text.find('\n', begin) + 1;
    return text.substr(0, begin) + line + text.substr(text.find('\n', begin));
}

}  // namespace

TEST_CASE("speed classes follow lichess's estimated duration, base + 40 x increment",
          "[counts][human]") {
    // Each class's bounds from both sides (lichess: 29 s is UltraBullet, 3+0 is Blitz).
    CHECK(speed_class_of_time_control("15+0") == SpeedClass::UltraBullet);
    CHECK(speed_class_of_time_control("29") == SpeedClass::UltraBullet);
    CHECK(speed_class_of_time_control("0+1") == SpeedClass::Bullet);  // 40 s
    CHECK(speed_class_of_time_control("60+0") == SpeedClass::Bullet);
    CHECK(speed_class_of_time_control("120+1") == SpeedClass::Bullet);  // 160 s
    CHECK(speed_class_of_time_control("180+0") == SpeedClass::Blitz);
    CHECK(speed_class_of_time_control("180+2") == SpeedClass::Blitz);       // 260 s
    CHECK(speed_class_of_time_control("300+4") == SpeedClass::Blitz);       // 460 s
    CHECK(speed_class_of_time_control("300+5") == SpeedClass::Rapid);       // 500 s
    CHECK(speed_class_of_time_control("600+5") == SpeedClass::Rapid);       // 800 s
    CHECK(speed_class_of_time_control("900+15") == SpeedClass::Classical);  // 1500 s
    CHECK(speed_class_of_time_control("1800+0") == SpeedClass::Classical);
    CHECK(speed_class_of_time_control("-") == SpeedClass::Correspondence);
    for (const char* bad : {"", "+", "600+", "+5", "600+5+1", "ten", "6OO+5", "-600+5", " 600+5",
                            "1234567890+0", "?"}) {
        INFO(bad);
        CHECK_FALSE(speed_class_of_time_control(bad).has_value());
    }
    for (const auto& entry : kSpeedClassNames) {
        CHECK(speed_class_name(entry.value) == entry.name);
        CHECK(speed_class_from_name(entry.name) == entry.value);
    }
    CHECK_FALSE(speed_class_from_name("Rapid").has_value());
}

TEST_CASE("ratings are binned by 50 to the bin's centre", "[counts][human]") {
    CHECK(bin_rating(1500) == 1525);
    CHECK(bin_rating(1549) == 1525);
    CHECK(bin_rating(1550) == 1575);
    CHECK(bin_rating(0) == 25);
    CHECK(bin_rating(-1) == -25);
    CHECK(bin_rating(-50) == -25);
    CHECK(bin_rating(-51) == -75);
    for (int rating = -200; rating <= 3500; ++rating) {
        INFO(rating);
        const int bin = bin_rating(rating);
        CHECK(bin_rating(bin) == bin);
        CHECK(rating >= bin - kRatingBinWidth / 2);
        CHECK(rating < bin + kRatingBinWidth / 2);
    }
}

TEST_CASE("a human-games count file reads back exactly, plain or compressed", "[counts][human]") {
    const HumanCounts written = sample_counts();
    const fs::path file = scratch("round_trip.txt");
    write_human_counts(file, written);
    const std::string text = contents(file);
    CHECK(text.rfind(R"({"format": "wdlfit-human-counts", "version": 1, "groups": 3,)", 0) == 0);
    CHECK(std::count(text.begin(), text.end(), '\n') == 1 + long(written.cells.size()));
    CHECK(text.find("\nL 40 10 -1001 2025 1975 blitz 2 1099511627776\n") != std::string::npos);

    HumanCounts read = read_human_counts(file);
    CHECK(read.groups == written.groups);
    CHECK(read.cells.size() == written.cells.size());
    for (std::size_t i = 0; i < std::min(read.cells.size(), written.cells.size()); ++i) {
        INFO(i);
        CHECK(read.cells[i].key == written.cells[i].key);
        CHECK(read.cells[i].group == written.cells[i].group);
        CHECK(read.cells[i].count == written.cells[i].count);
    }
    CHECK(read.total_count() == (std::uint64_t{1} << 40) + 29);
    CHECK(is_human_count_file(file));

    // The same bytes compressed with zstd, as a user may keep them.
    const fs::path compressed = scratch("round_trip.txt.zst");
    std::string packed(ZSTD_compressBound(text.size()), '\0');
    packed.resize(ZSTD_compress(packed.data(), packed.size(), text.data(), text.size(), 3));
    write_text(compressed, packed);
    CHECK(is_human_count_file(compressed));
    CHECK(read_human_counts(compressed).cells.size() == written.cells.size());

    // The writer sorts what it is given and leaves out cells of count 0.
    HumanCounts shuffled = written;
    std::reverse(shuffled.cells.begin(), shuffled.cells.end());
    shuffled.cells.push_back(cell(Outcome::Draw, 5, 50, 0, 1525, 1525, SpeedClass::Rapid, 0, 0));
    write_human_counts(file, shuffled);
    CHECK(contents(file) == text);
}

TEST_CASE("an empty human-games count file reads back empty", "[counts][human]") {
    const fs::path file = scratch("empty.txt");
    write_human_counts(file, HumanCounts{64, {}});
    HumanCounts read = read_human_counts(file);
    CHECK(read.groups == 64);
    CHECK(read.cells.empty());
    CHECK(read.total_count() == 0);
}

TEST_CASE("the writer refuses cells it could not read back", "[counts][human]") {
    const fs::path file = scratch("refused.txt");
    HumanCounts counts = sample_counts();
    SECTION("a (key, group) twice") { counts.cells.push_back(counts.cells.front()); }
    SECTION("a group beyond the groups") { counts.cells.front().group = 3; }
    SECTION("a rating not at a bin's centre") { counts.cells.front().key.rating = 1500; }
    SECTION("an eval beyond the bins") { counts.cells.front().key.position.eval = 1002; }
    CHECK_THROWS_AS(write_human_counts(file, counts), wdl::Error);
}

TEST_CASE("a damaged human-games count file is an error naming the file and line",
          "[counts][human]") {
    const fs::path file = scratch("damaged.txt");
    write_human_counts(file, sample_counts());
    const std::string text = contents(file);
    auto fails_with = [&](const std::string& damaged, const std::string& words) {
        write_text(file, damaged);
        CHECK_THROWS_WITH(read_human_counts(file),
                          Catch::Contains(file.string()) && Catch::Contains(words));
    };
    // Lines 2-5 are the cells of W, 6 of D, 7 and 8 of L (Outcome's order).
    fails_with(text.substr(0, text.rfind('\n', text.size() - 2) + 1), "cut short");
    fails_with(text.substr(0, text.size() - 1), "line end");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025 1975 blitz 2 0"),
               "line 7: a cell of count 0");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025 1975 blitz 3 1"), "line 7: group 3");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025 1975 Blitz 2 1"), "no speed class");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025 1975 blitz 2"), "missing");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025 1975 blitz 2 1 1"), "more than nine");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025  1975 blitz 2 1"), "two spaces");
    fails_with(with_line(text, 7, "X 40 10 -1001 2025 1975 blitz 2 1"), "not W, D or L");
    fails_with(with_line(text, 7, "L 40 10 -1001 2000 1975 blitz 2 1"), "out of the ranges");
    fails_with(with_line(text, 7, "L 40 10 -1001 2025 1975 blitz 2 -1"), "count");
    fails_with(with_line(text, 7, "L 70000 10 0 2025 1975 blitz 2 1"), "line 7");
    fails_with(with_line(text, 8, "L 40 10 -1001 2025 1975 blitz 2 1099511627776"),
               "line 8: the cell is not after");
    fails_with(with_line(text, 1, R"({"format": "wdlfit-human-counts", "version": 2})"),
               "version 2");
    fails_with(with_line(text, 1,
                         R"({"format": "wdlfit-human-counts", "version": 1, )"
                         R"("groups": 3, "ratingBinWidth": 100, "cells": 7})"),
               "bins of 100");
    fails_with(with_line(text, 1, R"({"format": "wdlfit-human-counts", "version": 1,)"),
               "not JSON");
    fails_with("{\"('W', 1, 78, 0)\": 3}\n", "no human-games count file");
    fails_with("", "empty");
}

TEST_CASE("the readers of plain and grouped count files refuse a human-games count file",
          "[counts][human]") {
    const fs::path file = scratch("refused_by_plain.txt");
    write_human_counts(file, sample_counts());
    CHECK_THROWS_WITH(
        read_count_file(file, [](const PositionKey&, std::int64_t) {}),
        Catch::StartsWith(file.string() + " is a human-games count file (scoreWDLstat --human"));
    CHECK_THROWS_WITH(read_grouped_count_file(file, [](int, const PositionKey&, std::int64_t) {}),
                      Catch::Contains("human-games count file"));

    const fs::path plain = scratch("plain.json");
    write_text(plain, "{\"('W', 1, 78, 0)\": 3}\n");
    CHECK_FALSE(is_human_count_file(plain));
    CHECK_FALSE(is_human_count_file(scratch("missing.txt")));
}

TEST_CASE("a human key and group pack into one number and back", "[counts][human]") {
    for (const HumanCell& original : sample_counts().cells) {
        for (int group : {0, 1, 63, kMaxPackedHumanGroups - 1}) {
            INFO(group);
            const HumanKey& key = original.key;
            if (key.position.move >= 1024) {
                CHECK_FALSE(human_packable(key, group));
                continue;
            }
            REQUIRE(human_packable(key, group));
            HumanCell back = unpack_human_cell(pack_human_cell(key, group), 7);
            CHECK(back.key == key);
            CHECK(back.group == group);
            CHECK(back.count == 7);
        }
    }
    HumanKey key{PositionKey{Outcome::Draw, 10, 40, 0}, 6375, 25, SpeedClass::Blitz};
    CHECK(human_packable(key, 0));
    CHECK(unpack_human_cell(pack_human_cell(key, 0), 1).key == key);
    CHECK_FALSE(human_packable(key, kMaxPackedHumanGroups));
    CHECK_FALSE(human_packable(key, -1));
    key.rating = 6425;
    CHECK_FALSE(human_packable(key, 0));
    key.rating = -25;
    CHECK_FALSE(human_packable(key, 0));
}

TEST_CASE("packed counts are written as the same cells are", "[counts][human]") {
    HumanCounts counts = sample_counts();
    // The cell of move 65535 is beyond what packs.
    counts.cells.erase(
        std::remove_if(counts.cells.begin(), counts.cells.end(),
                       [](const HumanCell& cell) { return !human_packable(cell.key, cell.group); }),
        counts.cells.end());
    REQUIRE(counts.cells.size() == 6);
    CountMap packed;
    for (const HumanCell& cell : counts.cells)
        packed.add(pack_human_cell(cell.key, cell.group), cell.count);
    const fs::path from_cells = scratch("from_cells.txt"), from_packed = scratch("from_packed.txt");
    write_human_counts(from_cells, counts);
    wdl::util::AtomicFile output(from_packed);
    write_human_counts(packed, counts.groups, output);
    CHECK(contents(from_packed) == contents(from_cells));
}
