// archiveWDL: refits from the fishtest archive on the Hugging Face Hub in bounded disk: batches
// downloaded, scanned into shards and deleted while the next downloads; the shards merged and
// fitted. A rerun resumes (docs/archive.md).
#include <CLI/CLI.hpp>
#include <cmath>
#include <thread>

#include "choice_option.hpp"
#include "fit_filter_options.hpp"
#include "game_selection_options.hpp"
#include "http_command_line.hpp"
#include "normalization_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "test_filter_options.hpp"
#include "wdl/commands/archive_wdl.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace archiveWDL_program {

// What to take from the archive, and the filters its download applies to each test's .json.
void add_archive_options(CLI::App& app, wdl::download::ArchiveSelection& selection, int& jobs) {
    app.add_option("--archive", selection.repo,
                   "The dataset on the Hub: fishtest's archive (earlier robertnurnberg/"
                   "fishtest_pgns); HF_ENDPOINT names a mirror, HF_TOKEN a token")
        ->capture_default_str();
    app.add_option("--revision", selection.revision,
                   "The dataset's branch, tag or commit; the run pins its commit, and a rerun "
                   "must find the same one")
        ->capture_default_str();
    app.add_option("--dates", selection.date_globs,
                   "The YY-MM-DD folders (a test's start, UTC) to refit from, as globs: "
                   "25-09-* is September 2025, 25-* the year, 25-09-0[1-7] a week")
        ->delimiter(',')
        ->required();
    add_test_filter_options(app, selection.query, selection.rules);
    app.add_option("--server", selection.metadata_server,
                   "Fishtest, whose /api/get_run/<id> back-fills a test's .json that the archive "
                   "lacks")
        ->capture_default_str();
    app.add_option("--jobs", jobs, "Files downloaded at once")
        ->check(number_checks::in_range(1, 64))
        ->capture_default_str();
}

// The batches: where they go, how large they are, what stays.
void add_batch_options(CLI::App& app, wdl::commands::ArchiveWdlOptions& options,
                       double& batch_gigabytes) {
    app.add_option("--work", options.work,
                   "Folder of the refit's state: the shard list (shards.json), the shards' "
                   "count files (shards/), the batches being downloaded and scanned (batches/). "
                   "The same command with the same folder resumes a run that was stopped")
        ->capture_default_str();
    app.add_option("--batch_size", batch_gigabytes,
                   "Gigabytes of games per batch (by the archive's listing; a test larger than "
                   "that is a batch of its own). One batch downloads while the one before is "
                   "scanned: the disk needed is about twice this, plus the shards (a few MB "
                   "each) and the merged counts")
        ->check(number_checks::in_range(1e-6, 1e6))  // 1 kB to 1 PB: bytes that fit 64 bits
        ->capture_default_str();
    app.add_flag("--keep", options.keep,
                 "Keep each batch's games in WORK/batches/<n>/ instead of deleting them after "
                 "its scan (then the disk holds all the games)");
    app.add_flag("--scan_only", options.scan_only,
                 "Stop after the shards and their merge: no fit (the tasks of a Slurm array "
                 "that split the dates; scripts/slurm/)");
    app.add_option("-o", options.output,
                   "The merged count file (default: WORK/archive_counts.json)");
    app.add_option("--json", options.json,
                   "Also write the run's summary (commit, tests, batches, files scanned and "
                   "failed, bytes, times) as JSON to this file");
}

// How each batch is scanned, as scoreWDLstat scans a folder.
void add_scan_options(CLI::App& app, wdl::commands::ScoreWdlStatOptions& scan) {
    add_test_filter_options(app, scan.games.filters);
    app.add_option("--matchEngine", scan.match_engine,
                   "Count only the moves of the engine(s) whose White/Black name matches this "
                   "regex (default: --matchRev)");
    app.add_option("--binWidth", scan.bin_width,
                   "Round evals to multiples of this many centipawns (default: 5)")
        ->check(number_checks::positive());
    app.add_option_function<int>(
           "--groups", [&scan](int groups) { scan.grouping->groups = groups; },
           "The groups of games (by a hash of each game's file and place) of the grouped count "
           "files, for scoreWDL's error bars (default: 64)")
        ->check(number_checks::in_range(1, wdl::counts::kMaxGroups));
    app.add_option("--concurrency", scan.concurrency,
                   "Threads of each batch's scan (default: all cores)")
        ->check(number_checks::positive());
}

// The fit of the merged counts, as scoreWDL fits.
void add_fit_options(CLI::App& app, wdl::commands::ScoreWdlOptions& fit) {
    add_normalization_options(app, fit.normalize_to_pawn_value, fit.normalize_data,
                              "the engine that played the counted games");
    add_fit_filter_options(app, fit.filter, fit.mom_target, fit.a_form, fit.b_form);
    app.add_option("--model_json", fit.json,
                   "The fitted model's JSON, as scoreWDL --json writes it (default: "
                   "WORK/model.json); plots and reports: scoreWDL on the merged counts");
}

}  // namespace archiveWDL_program

int wdl::programs::archiveWDL(int argc, char** argv) {
    using namespace archiveWDL_program;
    CLI::App app{
        "Refit the WDL model from the fishtest archive on the Hugging Face Hub in bounded disk: "
        "batches of tests downloaded, scanned into shards and deleted while the next batch "
        "downloads, the shards merged and fitted. A rerun resumes where a run stopped.",
        "archiveWDL"};
    wdl::commands::ArchiveWdlOptions options;
    options.selection.repo = "official-stockfish/fishtest_pgns";
    options.selection.revision = "main";
    options.scan.grouping = wdl::counts::Grouping{wdl::counts::GroupBy::Game, 64};
    options.scan.concurrency = std::max(1, int(std::thread::hardware_concurrency()));
    options.fit.plot = wdl::commands::PlotMode::None;
    double batch_gigabytes = 5;
    add_archive_options(app, options.selection, options.jobs);
    add_batch_options(app, options, batch_gigabytes);
    add_scan_options(app, options.scan);
    add_fit_options(app, options.fit);
    HttpCommandLine http(app, 2.0, 60);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;

    options.batch_bytes = std::uint64_t(std::llround(batch_gigabytes * 1e9));
    if (!options.fit.json) options.fit.json = options.work / "model.json";
    options.http = http.options();
    return wdl::util::report_errors([&] {
        options.hub = wdl::download::HubSettings::from_environment();
        return wdl::commands::archive_wdl(options);
    });
}
