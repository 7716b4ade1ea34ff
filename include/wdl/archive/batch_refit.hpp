#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "wdl/archive/archive_source.hpp"

// A refit from the archive in bounded disk (archiveWDL, docs/archive.md): the selected tests cut
// into batches; each batch downloaded into WORK/batches/<n>/, scanned into WORK/shards/<n>.json,
// recorded in WORK/shards.json and its games deleted, while the next batch downloads. At most
// two batches are on disk at once. A rerun resumes from the shard list.
namespace wdl::archive {

// The steps of a batch, in order, as the pipeline's hook sees them.
enum class BatchStep {
    Downloading,    // about to download (on the downloading thread)
    Scanning,       // downloaded, about to be scanned
    CountsWritten,  // its count file is complete, not yet in the shard list
    Recorded,       // in the shard list, its games not yet deleted
    Deleted,        // its games deleted (or kept, with keep)
};

// Scans the game files under `games` (fishtest's layout) into the count file `counts`.
using ScanBatch =
    std::function<void(const std::filesystem::path& games, const std::filesystem::path& counts)>;

struct BatchRefitSettings {
    std::filesystem::path work;
    std::uint64_t batch_bytes = 5'000'000'000;
    bool keep = false;  // keep each batch's games in WORK/batches/<n>/
    // Everything besides the commit that decides the counts (dates, filters, scan options):
    // recorded in the shard list, and a rerun must give the same.
    nlohmann::json selection;
    // Called at each step of each batch, on the thread that takes it; what it throws stops the
    // run as a failure there would (tests: the disk bound, failures at each step).
    std::function<void(BatchStep, int batch)> on_step;
};

struct BatchRefitSummary {
    std::string commit;
    int tests_listed = 0;
    int tests_pending = 0;    // with game files no shard held when the run started
    int batches_before = 0;   // recorded by earlier runs
    int batches = 0;          // this run's
    int files_scanned = 0;    // this run's game files
    int files_failed = 0;     // downloads that failed: a rerun tries them again
    int tests_failed = 0;     // tests without metadata to select by, or a file not had
    int tests_skipped = 0;    // left out by the download's filters
    std::uint64_t bytes = 0;  // downloaded by this run
    double seconds = 0;
    double download_seconds = 0;  // the downloads' time, overlapped with the scans
    double scan_seconds = 0;
    std::vector<std::filesystem::path> counts;  // every recorded shard's count file, in order
};

// Runs (or resumes) the refit: prints a line per batch to `log`. A file whose download failed is
// reported and counted, and stays to do for a rerun. Throws wdl::Error when the work folder
// holds another refit (check_same_refit) or cannot be written, and what a scan throws (then the
// batch is not recorded: a rerun scans it again).
BatchRefitSummary refit_in_batches(ArchiveSource& source, const BatchRefitSettings& settings,
                                   const ScanBatch& scan, std::ostream& log);

// The summary as JSON (archiveWDL --json).
nlohmann::ordered_json batch_refit_json(const BatchRefitSummary& summary);

}  // namespace wdl::archive
