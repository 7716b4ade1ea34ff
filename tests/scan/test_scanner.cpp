#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "program_runner.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/scan/scanner.hpp"

namespace fs = std::filesystem;
using namespace wdl::scan;
namespace games = wdl::games;

namespace {

// A short real game with engine comments; `moves` varies its length so that games differ.
std::string game_text(int index, bool with_tags, bool broken) {
    static const char* results[] = {"1-0", "0-1", "1/2-1/2"};
    const char* result = results[index % 3];
    std::string text;
    if (with_tags)
        text += "[Event \"game " + std::to_string(index) +
                "\"]\n[White \"New-a\"]\n"
                "[Black \"Base-b\"]\n[Result \"" +
                result + "\"]\n\n";
    text += "1. e4 {+0.30/10 0.1s} e5 {-0.2" + std::to_string(index % 10) + "/9 0.1s} ";
    text += broken ? "2. Qxh8 {+1.00/5}" : "2. Nf3 {+0.25/9 0.1s} Nc6 {0.00/9 0.1s}";
    if (index % 2) text += " 3. Bb5 {+0.41/8} a6 {-0.39/8}";
    return text + " " + result + "\n\n";
}

fs::path write_games(const std::string& name, int games, bool with_tags, int broken_game) {
    auto directory = wdl::testing::scratch_directory() / "wdl_test_scanner";
    fs::create_directories(directory);
    auto path = directory / name;
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < games; ++i) out << game_text(i, with_tags, i == broken_game);
    return path;
}

ScanResult scan(const fs::path& file, int threads, std::size_t chunk_bytes) {
    ScanSettings settings;
    settings.threads = threads;
    settings.reading.chunk_bytes = chunk_bytes;
    return scan_files({file}, settings);
}

}  // namespace

TEST_CASE("cutting one file into chunks for several threads changes no count or warning",
          "[scan][scanner]") {
    auto file = write_games("tagged.pgn", 3000, true, 1234);
    auto whole = scan(file, 1, std::size_t{1} << 30);
    REQUIRE(whole.tally.games_read == 3000);
    REQUIRE(whole.tally.games_accepted == 2999);
    REQUIRE(whole.files.warnings.size() == 1);
    CHECK_THAT(whole.files.warnings[0], Catch::Contains(", game 1235: "));
    for (int threads : {1, 3}) {
        INFO("threads " << threads);
        auto chunked = scan(file, threads, 4096);
        CHECK(wdl::counts::count_file_text(chunked.counts.plain) ==
              wdl::counts::count_file_text(whole.counts.plain));
        CHECK(chunked.tally.positions == whole.tally.positions);
        CHECK(chunked.tally.games_accepted == whole.tally.games_accepted);
        CHECK(chunked.files.warnings == whole.files.warnings);
    }
}

TEST_CASE("text without tag sections is still cut into chunks and read whole", "[scan][scanner]") {
    // Tagless games have no result tag, so they are read and skipped: what matters is that
    // every game is still found when the text must be cut at blank lines instead of tags.
    auto file = write_games("tagless.pgn", 3000, false, -1);
    auto whole = scan(file, 1, std::size_t{1} << 30);
    REQUIRE(whole.tally.games_read == 3000);
    for (int threads : {1, 2}) {
        INFO("threads " << threads);
        auto chunked = scan(file, threads, 4096);
        CHECK(chunked.tally.games_read == 3000);
        CHECK(chunked.tally.skipped == whole.tally.skipped);
    }
}

TEST_CASE("games keep their groups however the text is cut and read", "[scan][scanner][groups]") {
    auto file = write_games("grouped.pgn", 3000, true, -1);
    wdl::counts::Grouping grouping{wdl::counts::GroupBy::Game, 16};
    GameGrouping groups(grouping, {file}, file.parent_path(), {file});
    auto grouped_scan = [&](int threads, std::size_t chunk_bytes) {
        ScanSettings settings;
        settings.threads = threads;
        settings.reading.chunk_bytes = chunk_bytes;
        settings.rules.grouping = &groups;
        return scan_files({file}, settings);
    };
    auto whole = grouped_scan(1, std::size_t{1} << 30);
    auto plain = scan(file, 1, std::size_t{1} << 30);
    REQUIRE(whole.counts.grouped);
    CHECK(whole.counts.grouped->grouping() == grouping);
    std::string text = wdl::counts::grouped_count_file_bytes(*whole.counts.grouped);
    for (int threads : {1, 3}) {
        INFO("threads " << threads);
        CHECK(wdl::counts::grouped_count_file_bytes(*grouped_scan(threads, 4096).counts.grouped) ==
              text);
    }
    // The groups add up to the plain counts, and every group has games.
    wdl::counts::CountMap sum;
    std::set<int> used;
    whole.counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        sum.add(key, count);
        used.insert(group);
    });
    CHECK(wdl::counts::count_file_text(sum) == wdl::counts::count_file_text(plain.counts.plain));
    CHECK(used.size() == 16);
}

TEST_CASE("a file of many broken games lists the first few and counts the rest",
          "[scan][scanner]") {
    auto directory = wdl::testing::scratch_directory() / "wdl_test_scanner";
    fs::create_directories(directory);
    auto path = directory / "many_bad_fens.pgn";
    {
        std::ofstream out(path, std::ios::binary);
        std::string long_fen(1000, 'x');
        for (int i = 0; i < 5000; ++i)
            out << "[Result \"1-0\"]\n[FEN \"" << long_fen << "\"]\n\n1. e4 {+0.30/10} 1-0\n\n";
        out << game_text(1, true, false);
    }
    ScanSettings settings;
    settings.threads = 2;
    settings.reading.chunk_bytes = 64 << 10;  // many chunks, on both threads
    auto result = scan_files({path}, settings);
    CHECK(result.tally.skipped[std::size_t(games::GameSkipReason::InvalidFen)] == 5000);
    CHECK(result.tally.games_accepted == 1);
    REQUIRE(result.files.warnings.size() == games::kListedProblems + 1);
    CHECK_THAT(result.files.warnings.front(),
               Catch::Contains("game 1: invalid FEN") && Catch::Contains("... (1014 bytes)"));
    CHECK(result.files.warnings.front().size() < 400);
    CHECK_THAT(result.files.warnings.back(),
               Catch::Contains(std::to_string(5000 - games::kListedProblems) +
                               " more games skipped as broken (not listed)"));
}

TEST_CASE("a grouping without a base folder takes the file names as given", "[scan][groups]") {
    wdl::counts::Grouping grouping{wdl::counts::GroupBy::Game, 8};
    GameGrouping groups(grouping, {"games.pgn"}, {}, {"games.pgn"});
    CHECK(groups.group_of(0, 123) == wdl::counts::group_of_game("games.pgn", 123, 8));
}
