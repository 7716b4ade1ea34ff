#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>

#include "wdl/archive/archive_source.hpp"
#include "wdl/archive/batch_refit.hpp"
#include "wdl/commands/score_wdl.hpp"
#include "wdl/commands/score_wdl_stat.hpp"

// archiveWDL: refits from the fishtest archive on the Hugging Face Hub in bounded disk: batches
// downloaded, scanned into shards and deleted, the shards merged and fitted (docs/archive.md).
namespace wdl::commands {

struct ArchiveWdlOptions {
    download::HubSettings hub;
    download::ArchiveSelection selection;  // repository, revision, dates, download filters
    download::HttpOptions http;
    int jobs = 4;  // transfers at once
    std::filesystem::path work = "archive_refit";
    std::uint64_t batch_bytes = 5'000'000'000;
    bool keep = false;
    // The scan of each batch: its filters, engine, bins, groups and threads (the files, output
    // and summary are the batch's own).
    ScoreWdlStatOptions scan;
    bool scan_only = false;  // stop after the merge: no fit
    std::optional<std::filesystem::path>
        output;           // the merged counts; default WORK/archive_counts.json
    ScoreWdlOptions fit;  // its files are the merged counts
    std::optional<std::filesystem::path> json;                   // the run's summary
    std::function<void(archive::BatchStep, int batch)> on_step;  // tests: see BatchRefitSettings
};

// What the shard list records of a run's options: a rerun with other options must not add its
// counts to these (archive::check_same_refit).
nlohmann::json refit_selection(const ArchiveWdlOptions& options);

// The refit from `source`: batches, the merge and (unless scan_only) the fit, with their lines
// on stdout. Returns the exit status (score_wdl's, or 1 when downloads failed: a rerun fetches
// what is missing). Throws wdl::Error for bad options and when nothing could be counted.
int refit_from_archive(archive::ArchiveSource& source, const ArchiveWdlOptions& options);

// refit_from_archive from the archive on the Hub that the options name.
int archive_wdl(const ArchiveWdlOptions& options);

}  // namespace wdl::commands
