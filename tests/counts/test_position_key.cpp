#include <catch2/catch.hpp>

#include "wdl/counts/position_key.hpp"

using wdl::counts::bin_eval;
using wdl::counts::Outcome;
using wdl::counts::PositionKey;

TEST_CASE("position keys use the original tools' spelling", "[counts][key]") {
    CHECK(wdl::counts::format_key({Outcome::Win, 12, 62, 35}) == "('W', 12, 62, 35)");
    CHECK(wdl::counts::format_key({Outcome::Loss, 1, 78, -1001}) == "('L', 1, 78, -1001)");
}

TEST_CASE("position keys parse back, tolerating spacing and quote style", "[counts][key]") {
    auto key = wdl::counts::parse_key("('D', 10, 53, -65)");
    REQUIRE(key);
    CHECK(*key == PositionKey{Outcome::Draw, 10, 53, -65});
    auto spaced = wdl::counts::parse_key(" ( \"W\" ,3,  40 , +5 ) ");
    REQUIRE(spaced);
    CHECK(*spaced == PositionKey{Outcome::Win, 3, 40, 5});
}

TEST_CASE("position key numbers are read as Python int literals", "[counts][key]") {
    CHECK(wdl::counts::parse_key("('W', 1, 40, - 5)") == PositionKey{Outcome::Win, 1, 40, -5});
    CHECK(wdl::counts::parse_key("('W', 0, 00, -0)") == PositionKey{Outcome::Win, 0, 0, 0});
}

TEST_CASE("malformed position keys are rejected", "[counts][key]") {
    for (const char* bad : {"", "('X', 1, 2, 3)", "('W', 1, 2)", "('W', 1, 2, 3, 4)",
                            "('W', 1, 2, 3", "W, 1, 2, 3", "('W', a, 2, 3)", "('W', 1, 2, 3)x",
                            "('W', 10, 40, +-5)", "('W', 10, 40, --5)", "('W', 05, 40, 5)",
                            "('W', 1, 040, 5)", "('W', 1, 40, -05)", "('W', 1, 40, 9999999999)"}) {
        CAPTURE(bad);
        CHECK_FALSE(wdl::counts::parse_key(bad));
    }
}

TEST_CASE("packed keys round-trip", "[counts][key]") {
    for (PositionKey key :
         {PositionKey{Outcome::Win, 1, 78, 1001}, PositionKey{Outcome::Loss, 200, 0, -1001},
          PositionKey{Outcome::Draw, 57, 17, -5}}) {
        CHECK(wdl::counts::unpack_key(wdl::counts::pack_key(key)) == key);
    }
}

TEST_CASE("the spelling order is the order of the spelled keys", "[counts][key]") {
    std::vector<wdl::counts::PositionKey> keys;
    std::uint64_t state = 12345;
    auto next = [&state](int range) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return int((state >> 33) % std::uint64_t(range));
    };
    for (int move : {0, 1, 5, 9, 10, 12, 99, 100, 120, 200, 1000, 65535})
        for (int material : {0, 1, 9, 10, 17, 78, 100, 255})
            for (int eval :
                 {-32768, -1001, -100, -15, -10, -5, -1, 0, 1, 5, 10, 15, 100, 1001, 32767})
                keys.push_back({wdl::counts::Outcome(next(3)), move, material, eval});
    for (int i = 0; i < 5000; ++i)
        keys.push_back(
            {wdl::counts::Outcome(next(3)), next(65536), next(256), next(65536) - 32768});
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        for (std::size_t j : {i + 1, std::size_t(next(int(keys.size())))}) {
            auto a = wdl::counts::format_key(keys[i]), b = wdl::counts::format_key(keys[j]);
            INFO(a << " vs " << b);
            CHECK((a < b) ==
                  (wdl::counts::spelling_order(keys[i]) < wdl::counts::spelling_order(keys[j])));
            CHECK((a == b) ==
                  (wdl::counts::spelling_order(keys[i]) == wdl::counts::spelling_order(keys[j])));
        }
    }
}

TEST_CASE("the tabled spelling order is spelling_order, within and beyond its tables",
          "[counts][key]") {
    const wdl::counts::SpellingOrder order_of;
    std::uint64_t state = 777;
    auto next = [&state](int range) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return int((state >> 33) % std::uint64_t(range));
    };
    std::vector<wdl::counts::PositionKey> keys;
    for (int move : {0, 1, 9, 10, 99, 100, 1023, 1024, 1025, 65535})
        for (int material : {0, 9, 10, 78, 99, 100, 255})
            for (int eval : {-32768, -1024, -1023, -1001, -5, 0, 5, 1001, 1023, 1024, 32767})
                for (int result : {0, 1, 2})
                    keys.push_back({Outcome(result), move, material, eval});
    for (int i = 0; i < 20000; ++i)
        keys.push_back({Outcome(next(3)), next(2048), next(256), next(4096) - 2048});
    for (const auto& key : keys) {
        INFO(wdl::counts::format_key(key));
        CHECK(order_of(key) == wdl::counts::spelling_order(key));
    }
}

TEST_CASE("write_key writes the spelling of format_key, up to the longest", "[counts][key]") {
    for (const PositionKey& key :
         {PositionKey{Outcome::Win, 12, 62, 35}, PositionKey{Outcome::Loss, 0, 0, -1001},
          PositionKey{Outcome::Draw, -2147483647 - 1, -2147483647 - 1, -2147483647 - 1}}) {
        char buffer[wdl::counts::kLongestKeySpelling];
        std::string written(buffer, wdl::counts::write_key(buffer, key));
        CHECK(written == wdl::counts::format_key(key));
        CHECK(written.size() <= wdl::counts::kLongestKeySpelling);
    }
    char longest[wdl::counts::kLongestKeySpelling];
    CHECK(std::size_t(wdl::counts::write_key(longest, {Outcome::Draw, -2147483647 - 1,
                                                       -2147483647 - 1, -2147483647 - 1}) -
                      longest) == wdl::counts::kLongestKeySpelling);
}

TEST_CASE("binning rounds half away from zero and keeps mates", "[counts]") {
    CHECK(bin_eval(-7, 5) == -5);
    CHECK(bin_eval(3, 5) == 5);
    CHECK(bin_eval(2, 5) == 0);
    CHECK(bin_eval(-53, 5) == -55);
    CHECK(bin_eval(-52, 5) == -50);
    CHECK(bin_eval(-15, 10) == -20);
    CHECK(bin_eval(1000, 3) == 999);
    CHECK(bin_eval(1001, 5) == 1001);
    CHECK(bin_eval(-1001, 10) == -1001);
    CHECK(bin_eval(-37, 1) == -37);
}
