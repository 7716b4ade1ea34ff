#include <fmt/format.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "local_folder_archive.hpp"
#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/archive/shard_list.hpp"
#include "wdl/commands/archive_wdl.hpp"
#include "wdl/commands/score_wdl_stat.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;
using wdl::archive::BatchStep;

namespace {

constexpr int kGroups = 8;
// The bundled corpus's six tests by their listed bytes: 250 kB cuts them into three batches.
constexpr std::uint64_t kThreeBatches = 250'000;

wdl::commands::ScoreWdlStatOptions scan_options(int threads) {
    wdl::commands::ScoreWdlStatOptions scan;
    scan.grouping = wdl::counts::Grouping{wdl::counts::GroupBy::Game, kGroups};
    scan.concurrency = threads;
    return scan;
}

// The reference: scoreWDLstat's scan of a whole copy of the tests, with the same options.
std::string whole_scan(const fs::path& corpus, const fs::path& output) {
    auto scan = scan_options(1);
    scan.games.source.dir = corpus;
    scan.games.source.recursive = true;
    scan.output = output;
    wdl::commands::score_wdl_stat(scan);
    return read_text_file(output);
}

wdl::commands::ArchiveWdlOptions refit_options(const fs::path& work, std::uint64_t batch_bytes,
                                               int threads = 1) {
    wdl::commands::ArchiveWdlOptions options;
    options.work = work;
    options.batch_bytes = batch_bytes;
    options.scan = scan_options(threads);
    options.scan_only = true;
    return options;
}

// Every game file the shard list records, counting repeats.
std::map<std::string, int> recorded_files(const fs::path& work) {
    std::map<std::string, int> files;
    auto list = wdl::archive::read_shard_list(wdl::archive::shard_list_path(work));
    REQUIRE(list);
    for (const auto& shard : list->shards)
        for (const auto& file : shard.files) ++files[file.path];
    return files;
}

std::map<std::string, int> game_files_of(LocalFolderArchive& archive,
                                         const std::set<std::string>& left_out = {}) {
    std::map<std::string, int> files;
    for (const auto& test : archive.tests()) {
        if (left_out.count(test.id)) continue;
        for (const auto& file : test.files)
            if (wdl::fishtest::is_game_file_name(fs::path(file.path).filename().string()))
                files[file.path] = 1;
    }
    return files;
}

int folders_in(const fs::path& folder) {
    int count = 0;
    std::error_code error;
    for (auto it = fs::directory_iterator(folder, error); !error && it != fs::directory_iterator();
         it.increment(error))
        ++count;
    return count;
}

struct Killed : std::runtime_error {
    Killed() : std::runtime_error("killed") {}
};

}  // namespace

TEST_CASE("the refit in batches gives the count file of a scan of the whole copy, byte for byte",
          "[archive]") {
    auto [batch_bytes, batches] = GENERATE(table<std::uint64_t, int>(
        {{10'000'000'000, 1}, {kThreeBatches, 3}, {1, 6}}));  // a test larger than a batch alone
    int threads = GENERATE(1, 2);
    INFO(batches << " batches, " << threads << " scan threads");
    auto dir = fresh_directory(fmt::format("archive_batches_{}_{}", batches, threads));
    auto reference = whole_scan(corpus_path(), dir / "whole.json");
    LocalFolderArchive archive(corpus_path());
    auto options = refit_options(dir / "work", batch_bytes, threads);
    options.json = dir / "summary.json";
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
    CHECK(read_text_file(dir / "work" / "archive_counts.json") == reference);
    CHECK(recorded_files(dir / "work") == game_files_of(archive));
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["batches"] == batches);
    CHECK(summary["testsListed"] == 6);
    CHECK(summary["filesScanned"] == 9);
    CHECK(summary["counts"].size() == std::size_t(batches));
    CHECK(folders_in(dir / "work" / "batches") == 0);

    SECTION("a rerun finds nothing left to do and gives the same counts") {
        REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
        summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
        CHECK(summary["batches"] == 0);
        CHECK(summary["batchesBefore"] == batches);
        CHECK(read_text_file(dir / "work" / "archive_counts.json") == reference);
    }
}

TEST_CASE("at most two batches are on disk, and the next downloads while one is scanned",
          "[archive]") {
    auto dir = fresh_directory("archive_disk_bound");
    LocalFolderArchive archive(corpus_path());
    auto options = refit_options(dir / "work", 1, GENERATE(1, 2));
    std::mutex mutex;
    std::condition_variable scanning_started;
    int scans_started = 0, downloads = 0, most_on_disk = 0;
    bool overlapped = true;
    auto batches = dir / "work" / "batches";
    auto watch_disk = [&] { most_on_disk = std::max(most_on_disk, folders_in(batches)); };
    options.on_step = [&](BatchStep step, int) {
        std::lock_guard lock(mutex);
        watch_disk();
        if (step == BatchStep::Scanning) {
            ++scans_started;
            scanning_started.notify_all();
        }
    };
    // Batch k's download waits for batch k - 1's scan to start: a pipeline that scanned only
    // after every download (or downloaded only after each scan) would never get there.
    archive.before_download = [&] {
        std::unique_lock lock(mutex);
        watch_disk();
        int batch = downloads++;
        if (!scanning_started.wait_for(lock, std::chrono::seconds(30),
                                       [&] { return scans_started >= batch; }))
            overlapped = false;
    };
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
    CHECK(overlapped);
    CHECK(downloads == 6);
    CHECK(most_on_disk <= 2);
    CHECK(most_on_disk >= 1);

    SECTION("with --keep every batch's games stay") {
        archive.before_download = nullptr;
        auto kept = refit_options(dir / "kept", kThreeBatches);
        kept.keep = true;
        REQUIRE(wdl::commands::refit_from_archive(archive, kept) == 0);
        CHECK(folders_in(dir / "kept" / "batches") == 3);
    }
}

TEST_CASE("a refit killed at any step resumes and counts every file once", "[archive]") {
    auto [name, killed_at] = GENERATE(table<std::string, BatchStep>(
        {{"in the middle of a download", BatchStep::Downloading},
         {"in the middle of a scan", BatchStep::Scanning},
         {"between the count file and the shard list", BatchStep::CountsWritten},
         {"before the games are deleted", BatchStep::Recorded}}));
    INFO("killed " << name);
    auto dir = fresh_directory("archive_resume_" + std::to_string(int(killed_at)));
    auto reference = whole_scan(corpus_path(), dir / "whole.json");
    LocalFolderArchive archive(corpus_path());
    auto options = refit_options(dir / "work", kThreeBatches);
    if (killed_at == BatchStep::Downloading) {
        archive.copies_before_failure = 5;  // batch 0's four files, one of batch 1's
    } else {
        options.on_step = [killed_at = killed_at](BatchStep step, int batch) {
            if (step == killed_at && batch == 1) throw Killed();
        };
    }
    CHECK_THROWS(wdl::commands::refit_from_archive(archive, options));
    CHECK(recorded_files(dir / "work").size() < 8);  // not every file

    archive.copies_before_failure = -1;
    options.on_step = nullptr;
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
    CHECK(read_text_file(dir / "work" / "archive_counts.json") == reference);
    CHECK(recorded_files(dir / "work") == game_files_of(archive));
    CHECK(folders_in(dir / "work" / "batches") == 0);
}

TEST_CASE("failed files are counted by a rerun, tests left out by the filters never", "[archive]") {
    auto dir = fresh_directory("archive_failures");
    LocalFolderArchive archive(corpus_path());
    const std::string filtered = "fada7bd8c58aff62bbd52188";
    const std::string failing =
        "24-07-21/716838bf67ed35143299f7d3/716838bf67ed35143299f7d3-3.pgn.gz";
    archive.filtered_tests = {filtered};
    archive.failing_files = {failing};
    auto options = refit_options(dir / "work", kThreeBatches);
    options.json = dir / "summary.json";
    CHECK(wdl::commands::refit_from_archive(archive, options) == 1);
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["filesFailed"] == 1);
    CHECK(recorded_files(dir / "work").count(failing) == 0);

    // The filtered test shared the failed file's batch: a failure there may have been its
    // metadata's, so it is looked at again too.
    archive.failing_files.clear();
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
    summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["testsPending"] == 2);  // the failed file's test, for that file alone
    CHECK(summary["filesScanned"] == 1);
    CHECK(summary["testsSkipped"] == 1);
    CHECK(recorded_files(dir / "work") == game_files_of(archive, {filtered}));
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
    summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["testsPending"] == 0);

    // The reference: the whole copy without the test the filters left out.
    auto copy = dir / "copy";
    fs::copy(corpus_path(), copy, fs::copy_options::recursive);
    fs::remove_all(copy / "24-11-05");
    CHECK(read_text_file(dir / "work" / "archive_counts.json") ==
          whole_scan(copy, dir / "whole.json"));
}

TEST_CASE("a work folder of another commit or selection is refused", "[archive]") {
    auto dir = fresh_directory("archive_other_refit");
    LocalFolderArchive archive(corpus_path());
    auto options = refit_options(dir / "work", kThreeBatches);
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);
    LocalFolderArchive moved(corpus_path(), "beef");
    CHECK_THROWS_WITH(wdl::commands::refit_from_archive(moved, options),
                      Catch::Contains("commit c0ffee") && Catch::Contains("--revision c0ffee"));
    auto other = options;
    other.scan.grouping->groups = 16;
    CHECK_THROWS_WITH(wdl::commands::refit_from_archive(archive, other),
                      Catch::Contains("another selection") && Catch::Contains("scan"));
}

TEST_CASE("the refit fits the merged counts as scoreWDL fits the whole scan", "[archive]") {
    auto dir = fresh_directory("archive_fit");
    LocalFolderArchive archive(corpus_path());
    auto options = refit_options(dir / "work", kThreeBatches);
    options.scan_only = false;
    options.fit.plot = wdl::commands::PlotMode::None;
    options.fit.resample = wdl::commands::ResampleChoice::None;
    options.fit.json = dir / "model.json";
    REQUIRE(wdl::commands::refit_from_archive(archive, options) == 0);

    auto reference = options.fit;
    reference.files = {dir / "whole.json"};
    reference.json = dir / "whole_model.json";
    whole_scan(corpus_path(), dir / "whole.json");
    REQUIRE(wdl::commands::score_wdl(reference) == 0);
    auto model = nlohmann::json::parse(read_text_file(dir / "model.json"));
    auto expected = nlohmann::json::parse(read_text_file(dir / "whole_model.json"));
    CHECK(model["model"]["as"].size() == 4);
    CHECK(model["model"] == expected["model"]);
}
