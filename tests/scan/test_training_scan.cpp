#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

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

TEST_CASE("training scores are counted as the engine displays them", "[scan][training]") {
    auto path = testing::scratch_directory() / "wdl_test_training_scan" / "scores.txt";
    fs::create_directories(path.parent_path());
    // Internal scores with a pawn of 328: 164 is half a pawn; 31990 a mate; 32002 no score.
    std::ofstream(path) << "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 164 | 1.0\n"
                           "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 31990 | 1.0\n"
                           "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 32002 | 1.0\n"
                           "4k3/8/8/8/8/8/8/R3K3 w - - 0 30 | 9000 | 1.0\n";
    auto result =
        scan_training({path}, TrainingFormat::Bullet, 1, model::Normalization::fixed(328));
    CHECK(result.tally.without_score == 1);
    auto keys = count_map(result.counts);
    auto key = [](int eval) { return counts::pack_key({counts::Outcome::Win, 30, 5, eval}); };
    CHECK(keys == std::map<std::uint64_t, std::uint64_t>{
                      {key(50), 1}, {key(counts::kMateEval), 1}, {key(counts::kMaxEval), 1}});
}
