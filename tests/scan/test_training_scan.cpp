#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/counts/position_key.hpp"
#include "wdl/scan/scanner.hpp"
#include "wdl/scan/training_scan.hpp"

namespace fs = std::filesystem;
using namespace wdl;
using training::TrainingFormat;

namespace {

// The file the training fixtures were written from (tests/data/training/README.md).
const char* kGames = "24-11-05/fada7bd8c58aff62bbd52188/fada7bd8c58aff62bbd52188.pgn.gz";

std::map<std::uint64_t, std::uint64_t> count_map(const counts::PositionCounts& counts) {
    std::map<std::uint64_t, std::uint64_t> keys;
    counts.for_each([&](std::uint64_t key, int, std::uint64_t count) { keys[key] += count; });
    return keys;
}

scan::TrainingScanResult scan_training(const std::vector<fs::path>& files, TrainingFormat format,
                                       int threads, const model::Normalization& normalization,
                                       std::size_t chunk_bytes = std::size_t{4} << 20) {
    scan::TrainingScanSettings settings;
    settings.threads = threads;
    settings.chunk_bytes = chunk_bytes;
    settings.formats.assign(files.size(), format);
    settings.rules.normalization = &normalization;
    return scan::scan_training_files(files, settings);
}

// The one-block fixture three times over: a file of three blocks.
fs::path three_blocks() {
    auto path = testing::scratch_directory() / "wdl_test_training_scan" / "three.binpack";
    fs::create_directories(path.parent_path());
    std::string one = testing::read_decompressed(testing::test_data_path("training/games.binpack"));
    std::ofstream(path, std::ios::binary) << one << one << one;
    return path;
}

}  // namespace

// The scores of the fixtures are the games' displayed evals: taken as they are (a pawn of 100),
// the positions of each format count exactly as the scan of the games they came from.
TEST_CASE("binpack, plain, bin and bullet data of the bundled games count as the games do",
          "[scan][training]") {
    scan::ScanSettings pgn_settings;
    auto games = scan::scan_files({testing::corpus_path(kGames)}, pgn_settings);
    auto expected = count_map(games.counts);
    REQUIRE(games.tally.positions == 8029);
    auto as_they_are = model::Normalization::fixed(100);
    struct Case {
        const char* file;
        TrainingFormat format;
    };
    for (auto [file, format] : {Case{"training/games.binpack", TrainingFormat::Binpack},
                                Case{"training/games.plain.gz", TrainingFormat::Plain},
                                Case{"training/games.bin.gz", TrainingFormat::Bin},
                                Case{"training/games.bullet.txt.gz", TrainingFormat::Bullet}}) {
        for (int threads : {1, 2}) {
            INFO(file << ", threads " << threads);
            // Small chunks: the text formats are cut into many, read by both threads.
            auto result = scan_training({testing::test_data_path(file)}, format, threads,
                                        as_they_are, 64 << 10);
            CHECK(count_map(result.counts) == expected);
            CHECK(result.tally.positions == 8029);
            CHECK(result.files.warnings.empty());
        }
    }
}

TEST_CASE("a binpack's blocks are shared by the threads, and a damaged one is lost alone",
          "[scan][training]") {
    auto as_they_are = model::Normalization::fixed(100);
    auto path = three_blocks();
    auto one = scan_training({testing::test_data_path("training/games.binpack")},
                             TrainingFormat::Binpack, 1, as_they_are);
    for (int threads : {1, 2}) {
        INFO("threads " << threads);
        // Chunks of one block each.
        auto result = scan_training({path}, TrainingFormat::Binpack, threads, as_they_are, 1024);
        CHECK(result.tally.positions == 3 * one.tally.positions);
        CHECK(result.tally.records == 3);
    }
    // The middle block's first position made impossible.
    std::string bytes = testing::read_decompressed(path);
    std::size_t block = bytes.size() / 3;
    for (std::size_t i = 0; i < 8; ++i) bytes[block + 8 + i] = char(0xFF);
    std::ofstream(path, std::ios::binary) << bytes;
    for (int threads : {1, 2}) {
        INFO("threads " << threads);
        auto result = scan_training({path}, TrainingFormat::Binpack, threads, as_they_are, 1024);
        CHECK(result.tally.positions == 2 * one.tally.positions);
        CHECK(result.tally.units_dropped == 1);
        REQUIRE(result.files.warnings.size() == 1);
        CHECK(result.files.warnings[0] == "Warning: " + path.string() + ", block 2: at byte " +
                                              std::to_string(block) +
                                              ", a position of more than 32 pieces; block skipped");
    }
}

// Issue 52: the first of 100 blocks with its size raised by 50 blocks' worth once took the 50
// good blocks after it down with it. Its own positions are lost (a block counts whole, and its
// damage lies within what it claims); the 99 blocks after it count, under one warning.
TEST_CASE("a binpack block's damaged size loses that block alone", "[scan][training]") {
    auto as_they_are = model::Normalization::fixed(100);
    std::string one = testing::read_decompressed(testing::test_data_path("training/games.binpack"));
    std::string bytes;
    for (int i = 0; i < 100; ++i) bytes += one;
    std::uint32_t size = 0;
    for (int i = 3; i >= 0; --i) size = size << 8 | std::uint8_t(bytes[4 + std::size_t(i)]);
    size += 50 * std::uint32_t(one.size());
    for (int i = 0; i < 4; ++i) bytes[4 + std::size_t(i)] = char(size >> (8 * i) & 0xFF);
    auto path = testing::scratch_directory() / "wdl_test_training_scan" / "raised_size.binpack";
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    auto single = scan_training({testing::test_data_path("training/games.binpack")},
                                TrainingFormat::Binpack, 1, as_they_are);
    // One chunk, and chunks of a block each (the first cut where the raised size ends).
    for (std::size_t chunk_bytes : {std::size_t{4} << 20, std::size_t{1024}}) {
        for (int threads : {1, 2}) {
            INFO("threads " << threads << ", chunks of " << chunk_bytes);
            auto result =
                scan_training({path}, TrainingFormat::Binpack, threads, as_they_are, chunk_bytes);
            CHECK(result.tally.records == 100);
            CHECK(result.tally.records_broken == 1);
            CHECK(result.tally.units == 99);
            CHECK(result.tally.units_dropped == 1);
            CHECK(result.tally.positions == 99 * single.tally.positions);
            REQUIRE(result.files.warnings.size() == 1);
            CHECK_THAT(result.files.warnings[0],
                       Catch::StartsWith("Warning: " + path.string() + ", block 1: at byte 0, "));
        }
    }
}

// Issue 52: .plain written from shuffled data makes units of one record, which a jackknife
// over its groups would take as independent games. The summary gives the mean, and warns.
TEST_CASE("units of single records are reported as no games", "[scan][training]") {
    auto as_they_are = model::Normalization::fixed(100);
    auto ordered = scan_training({testing::test_data_path("training/games.plain.gz")},
                                 TrainingFormat::Plain, 1, as_they_are);
    CHECK(ordered.tally.units == 80);
    CHECK(scan::positions_per_unit(ordered.tally) == Approx(9309.0 / 80));
    CHECK(scan::units_warning(ordered).empty());
    CHECK_THAT(scan::format_training_summary(ordered, 1.0),
               Catch::Contains("\nUnits: 116.4 positions a counted unit on average.\n"));

    // The records in an order of their own: a fixed stride through them (coprime to their
    // count) lands a record after its game's previous one only by chance.
    std::string text =
        testing::read_decompressed(testing::test_data_path("training/games.plain.gz"));
    std::vector<std::string> records;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find("\ne\n", at) + 3;
        records.push_back(text.substr(at, end - at));
        at = end;
    }
    REQUIRE(records.size() == 9309);
    auto path = testing::scratch_directory() / "wdl_test_training_scan" / "shuffled.plain";
    fs::create_directories(path.parent_path());
    {
        std::ofstream out(path, std::ios::binary);
        for (std::size_t i = 0; i < records.size(); ++i) out << records[i * 4001 % records.size()];
    }
    auto shuffled = scan_training({path}, TrainingFormat::Plain, 2, as_they_are);
    CHECK(shuffled.tally.positions == ordered.tally.positions);
    CHECK(scan::positions_per_unit(shuffled.tally) < scan::kFewestPositionsPerGame);
    CHECK_THAT(scan::units_warning(shuffled), Catch::StartsWith("Warning: the "));
    CHECK_THAT(scan::units_warning(shuffled), Catch::Contains("they are not games"));
}

TEST_CASE("training scores are counted as the engine displays them", "[scan][training]") {
    auto path = testing::scratch_directory() / "wdl_test_training_scan" / "scores.txt";
    fs::create_directories(path.parent_path());
    // Internal scores with a pawn of 328: 164 is half a pawn; 31990 a mate; 32002 no score.
    std::ofstream(path) << "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 164 | 1.0\n"
                           "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 31990 | 1.0\n"
                           "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 32002 | 1.0\n"
                           // No score for Black to move either (once a mate against the mover).
                           "4k3/8/8/8/8/8/8/R3K3 b - - 0 30 | 32002 | 0.0\n"
                           "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 9000 | 1.0\n";
    auto result =
        scan_training({path}, TrainingFormat::Bullet, 1, model::Normalization::fixed(328));
    CHECK(result.tally.without_score == 2);
    auto keys = count_map(result.counts);
    auto key = [](int eval) { return counts::pack_key({counts::Outcome::Win, 30, 5, eval}); };
    CHECK(keys == std::map<std::uint64_t, std::uint64_t>{
                      {key(50), 1}, {key(counts::kMateEval), 1}, {key(counts::kMaxEval), 1}});
}
