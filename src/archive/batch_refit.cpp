#include "wdl/archive/batch_refit.hpp"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "wdl/archive/shard_list.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::archive {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

fs::path batch_folder(const fs::path& work, int batch) {
    return work / "batches" / std::to_string(batch);
}

std::string counts_name(int batch) { return "shards/" + std::to_string(batch) + ".json"; }

std::string size_text(std::uint64_t bytes) {
    return bytes >= 1'000'000'000 ? fmt::format("{:.2f} GB", double(bytes) / 1e9)
                                  : fmt::format("{:.1f} MB", double(bytes) / 1e6);
}

struct DownloadedBatch {
    download::ArchiveDownloadSummary summary;
    std::string log;  // the download's lines, printed with the batch's own
    double seconds = 0;
};

// The hand-off between the downloading thread and the scanning one. Batch i may start its
// download once batch i - 2 is released (its games deleted), so that at most two batches are
// on disk: the one scanned and the one downloading.
class BatchHandOff {
  public:
    // Downloading thread: waits for room for batch `index`; false when the run stopped.
    bool wait_for_room(int index) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopped_ || index < released_ + 2; });
        return !stopped_;
    }
    void downloaded(DownloadedBatch batch) {
        std::lock_guard lock(mutex_);
        ready_.push_back(std::move(batch));
        changed_.notify_all();
    }
    void failed(std::exception_ptr failure) {
        std::lock_guard lock(mutex_);
        failure_ = failure;
        changed_.notify_all();
    }
    // Scanning thread: the download of batch `index`, or what the downloading thread threw.
    DownloadedBatch wait_for(int index) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return failure_ || int(ready_.size()) > index; });
        if (int(ready_.size()) <= index) std::rethrow_exception(failure_);
        return std::move(ready_[index]);
    }
    void release(int index) {
        std::lock_guard lock(mutex_);
        released_ = index + 1;
        changed_.notify_all();
    }
    void stop() {
        std::lock_guard lock(mutex_);
        stopped_ = true;
        changed_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<DownloadedBatch> ready_;
    std::exception_ptr failure_;
    int released_ = 0;
    bool stopped_ = false;
};

// Batch folders left by an earlier run: those of recorded batches go (unless kept), as do any
// beyond the two the run starts with; the two it starts with keep what was downloaded.
void remove_stale_batches(const fs::path& work, int first_batch, bool keep) {
    for (const auto& entry : fs::directory_iterator(work / "batches")) {
        int batch = -1;
        try {
            batch = std::stoi(entry.path().filename().string());
        } catch (const std::exception&) {
            continue;  // not ours
        }
        if ((batch < first_batch && !keep) || batch > first_batch + 1) fs::remove_all(entry.path());
    }
}

// Removes every file under `folder` that is not one of the batch's listed files: what an earlier
// run's batch of another make-up or an interrupted transfer left, which must not be counted.
void remove_strays(const fs::path& folder, const std::vector<download::ArchiveTest>& batch) {
    std::set<std::string> listed;
    for (const auto& test : batch)
        for (const auto& file : test.files) listed.insert(file.path);
    std::vector<fs::path> strays;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (entry.is_regular_file() &&
            !listed.count(fs::relative(entry.path(), folder).generic_string()))
            strays.push_back(entry.path());
    }
    for (const auto& stray : strays) fs::remove(stray);
}

bool is_game_file(const download::ArchiveFile& file) {
    return fishtest::is_game_file_name(fs::path(file.path).filename().string());
}

// The shard of a downloaded batch before its scan: the game files present; a test without any
// is one the filters left out when no download failed, else still to do.
Shard shard_of_batch(int batch, const std::vector<download::ArchiveTest>& tests,
                     const fs::path& folder, bool downloads_failed) {
    Shard shard;
    shard.batch = batch;
    for (const auto& test : tests) {
        bool has_games = false;
        for (const auto& file : test.files) {
            std::error_code error;
            if (is_game_file(file) && fs::is_regular_file(folder / file.path, error)) {
                shard.files.push_back({file.path, file.size, file.sha256});
                has_games = true;
            }
        }
        if (!has_games && !downloads_failed) shard.skipped_tests.push_back(test.id);
    }
    return shard;
}

class BatchRefit {
  public:
    BatchRefit(ArchiveSource& source, const BatchRefitSettings& settings, const ScanBatch& scan,
               std::ostream& log)
        : source_(source), settings_(settings), scan_(scan), log_(log) {}

    BatchRefitSummary run() {
        auto start = Clock::now();
        fs::create_directories(settings_.work / "batches");
        fs::create_directories(settings_.work / "shards");
        summary_.commit = source_.commit();
        resume_or_start();
        plan_batches();
        run_batches();
        for (const auto& shard : list_.shards)
            if (shard.counts) summary_.counts.push_back(settings_.work / *shard.counts);
        summary_.seconds = seconds_since(start);
        return summary_;
    }

  private:
    // The shard list of an earlier run of the same refit, or a new one.
    void resume_or_start() {
        list_path_ = shard_list_path(settings_.work);
        if (auto earlier = read_shard_list(list_path_)) {
            check_same_refit(*earlier, summary_.commit, settings_.selection, list_path_);
            list_ = std::move(*earlier);
        } else {
            list_ = ShardList{summary_.commit, settings_.selection, {}};
        }
        summary_.batches_before = int(list_.shards.size());
    }

    // What no shard holds yet, cut into batches numbered on from the recorded ones.
    void plan_batches() {
        auto tests = source_.tests();
        auto pending = pending_tests(tests, list_);
        batches_ = cut_into_batches(pending, settings_.batch_bytes);
        first_batch_ = list_.shards.empty() ? 0 : list_.shards.back().batch + 1;
        remove_stale_batches(settings_.work, first_batch_, settings_.keep);
        for (const auto& test : pending) pending_bytes_ += listed_bytes(test);
        summary_.tests_listed = int(tests.size());
        summary_.tests_pending = int(pending.size());
        summary_.batches = int(batches_.size());
        log_ << fmt::format(
                    "The archive at commit {}: {} tests listed, {} with games to count ({}) in {} "
                    "batch{} of at most {}; {} batch{} counted before.",
                    summary_.commit, tests.size(), pending.size(), size_text(pending_bytes_),
                    batches_.size(), batches_.size() == 1 ? "" : "es",
                    size_text(settings_.batch_bytes), summary_.batches_before,
                    summary_.batches_before == 1 ? "" : "es")
             << std::endl;
    }

    void step(BatchStep step, int batch) const {
        if (settings_.on_step) settings_.on_step(step, batch);
    }

    void download_all(BatchHandOff& hand_off) {
        try {
            for (int i = 0; i < int(batches_.size()); ++i) {
                if (!hand_off.wait_for_room(i)) return;
                int batch = first_batch_ + i;
                step(BatchStep::Downloading, batch);
                auto start = Clock::now();
                std::ostringstream lines;
                DownloadedBatch done;
                done.summary =
                    source_.download(batches_[i], batch_folder(settings_.work, batch), lines);
                done.log = lines.str();
                done.seconds = seconds_since(start);
                hand_off.downloaded(std::move(done));
            }
        } catch (...) {
            hand_off.failed(std::current_exception());
        }
    }

    void run_batches() {
        BatchHandOff hand_off;
        std::thread downloader([&] { download_all(hand_off); });
        // Whatever ends the scans, the downloading thread stops after its current transfer.
        struct Joiner {
            BatchHandOff& hand_off;
            std::thread& thread;
            ~Joiner() {
                hand_off.stop();
                thread.join();
            }
        } joiner{hand_off, downloader};
        auto start = Clock::now();
        std::uint64_t done_bytes = 0;
        for (int i = 0; i < int(batches_.size()); ++i) {
            auto downloaded = hand_off.wait_for(i);
            count_batch(first_batch_ + i, batches_[i], downloaded);
            hand_off.release(i);
            for (const auto& test : batches_[i]) done_bytes += listed_bytes(test);
            double seconds = seconds_since(start);
            // Zero-byte tests (a listing without sizes) count as done at once.
            double done = pending_bytes_ ? double(done_bytes) / double(pending_bytes_) : 1.0;
            log_ << fmt::format("Batch {} of {} done: {} of {} ({:.0f}%), {:.1f} MB/s, {} left.",
                                i + 1, batches_.size(), size_text(done_bytes),
                                size_text(pending_bytes_), 100 * done,
                                double(done_bytes) / 1e6 / std::max(seconds, 1e-3),
                                util::estimated_time_left(seconds, done))
                 << std::endl;
        }
    }

    // Scans a downloaded batch, records its shard, deletes its games.
    void count_batch(int batch, const std::vector<download::ArchiveTest>& tests,
                     const DownloadedBatch& downloaded) {
        log_ << downloaded.log;
        const auto& download = downloaded.summary;
        summary_.bytes += download.bytes;
        summary_.download_seconds += downloaded.seconds;
        summary_.files_failed += download.files_failed;
        summary_.tests_failed += download.tests_failed;
        auto folder = batch_folder(settings_.work, batch);
        fs::create_directories(folder);
        remove_strays(folder, tests);
        auto shard = shard_of_batch(batch, tests, folder,
                                    download.files_failed > 0 || download.tests_failed > 0);
        log_ << fmt::format(
                    "Batch {}: {} tests, {} game files downloaded in {:.1f} s ({}){}{}.", batch,
                    tests.size(), shard.files.size(), downloaded.seconds, size_text(download.bytes),
                    shard.skipped_tests.empty() ? ""
                                                : fmt::format(", {} tests left out by the filters",
                                                              shard.skipped_tests.size()),
                    download.files_failed + download.tests_failed == 0
                        ? ""
                        : fmt::format(", {} files and {} tests failed (a rerun tries them again)",
                                      download.files_failed, download.tests_failed))
             << std::endl;
        step(BatchStep::Scanning, batch);
        if (!shard.files.empty()) {
            auto start = Clock::now();
            scan_(folder, settings_.work / counts_name(batch));
            summary_.scan_seconds += seconds_since(start);
            shard.counts = counts_name(batch);
        }
        step(BatchStep::CountsWritten, batch);
        summary_.files_scanned += int(shard.files.size());
        summary_.tests_skipped += int(shard.skipped_tests.size());
        list_.shards.push_back(std::move(shard));
        write_shard_list(list_path_, list_);
        step(BatchStep::Recorded, batch);
        if (!settings_.keep) fs::remove_all(folder);
        step(BatchStep::Deleted, batch);
    }

    ArchiveSource& source_;
    const BatchRefitSettings& settings_;
    const ScanBatch& scan_;
    std::ostream& log_;
    BatchRefitSummary summary_;
    std::filesystem::path list_path_;
    ShardList list_;
    std::vector<std::vector<download::ArchiveTest>> batches_;
    int first_batch_ = 0;
    std::uint64_t pending_bytes_ = 0;
};

}  // namespace

BatchRefitSummary refit_in_batches(ArchiveSource& source, const BatchRefitSettings& settings,
                                   const ScanBatch& scan, std::ostream& log) {
    return BatchRefit(source, settings, scan, log).run();
}

nlohmann::ordered_json batch_refit_json(const BatchRefitSummary& summary) {
    std::vector<std::string> counts;
    for (const auto& file : summary.counts) counts.push_back(file.string());
    return {{"commit", summary.commit},
            {"testsListed", summary.tests_listed},
            {"testsPending", summary.tests_pending},
            {"batchesBefore", summary.batches_before},
            {"batches", summary.batches},
            {"filesScanned", summary.files_scanned},
            {"filesFailed", summary.files_failed},
            {"testsFailed", summary.tests_failed},
            {"testsSkipped", summary.tests_skipped},
            {"bytesDownloaded", summary.bytes},
            {"seconds", summary.seconds},
            {"downloadSeconds", summary.download_seconds},
            {"scanSeconds", summary.scan_seconds},
            {"counts", counts}};
}

}  // namespace wdl::archive
