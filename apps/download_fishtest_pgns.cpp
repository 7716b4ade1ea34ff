// Bulk-downloads the games (.pgn.gz) and metadata (.json) of finished fishtest tests into
// PATH/YY-MM-DD/<test-id>/, fetching only what is not there yet: from fishtest itself, or with
// --archive from the archive of every test's games on the Hugging Face Hub.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <optional>

#include "http_command_line.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "test_filter_options.hpp"
#include "wdl/download/downloader.hpp"
#include "wdl/download/hub_archive.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace download_fishtest_pgns_program {

double unix_time_hours_ago(double hours) {
    auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch());
    return now.count() - hours * 3600.0;
}

// The archive's repository: the option's value, or the default for --archive without one.
std::string archive_repository(const std::optional<std::string>& given) {
    return given && !given->empty() ? *given : wdl::download::ArchiveSelection{}.repo;
}

}  // namespace download_fishtest_pgns_program

int wdl::programs::download_fishtest_pgns(int argc, char** argv) {
    using namespace download_fishtest_pgns_program;
    using namespace wdl::download;
    CLI::App app{
        "Bulk-download .pgn.gz files from finished tests on fishtest, or with --archive "
        "from the archive of fishtest's games on the Hugging Face Hub.",
        "download_fishtest_pgns"};
    app.option_defaults()->always_capture_default();

    DownloadSettings settings;
    std::string root = settings.root.string();
    double time_delta = 168.0;

    app.add_option("--path", root,
                   "Downloaded .pgn.gz files will be stored in PATH/YY-MM-DD/test-Id/.");
    std::optional<std::string> archive_repo;
    ArchiveSelection archive;
    int jobs = 4;
    std::string json_file;
    auto* archive_option =
        app.add_option("--archive", archive_repo,
                       "Download from the archive of fishtest's games on the Hugging Face Hub "
                       "instead: this dataset (default: official-stockfish/fishtest_pgns), "
                       "from HF_ENDPOINT (default https://huggingface.co) with the token of "
                       "HF_TOKEN or $HF_HOME/token, never with HF_HUB_OFFLINE set. The filters "
                       "apply to each test's .json; every game file is verified by its size and "
                       "sha256, and a partial one resumed. See docs/hub-archive-download.md")
            ->expected(0, 1);
    app.add_option("--revision", archive.revision,
                   "The archive's branch, tag or commit (pinned to its commit for the run)")
        ->needs(archive_option);
    app.add_option("--dates", archive.date_globs,
                   "The archive's YY-MM-DD folders to take, as glob patterns (e.g. 25-09-*), "
                   "comma-separated; default: all")
        ->delimiter(',')
        ->needs(archive_option);
    app.add_option("--jobs", jobs, "Transfers at once from the archive.")
        ->check(number_checks::in_range(1, 64))
        ->needs(archive_option);
    app.add_option("--time_delta", time_delta,
                   "Delta of hours from now since the desired tests are last updated.")
        ->check(number_checks::non_negative())
        ->excludes(archive_option);
    add_test_filter_options(app, settings.query, settings.rules);
    app.add_flag("-v,--verbose", settings.verbosity, "Increase output with e.g. -v or -vv.");
    app.add_option("--server", settings.server,
                   "Base URL of the fishtest server (with --archive: where the .json of a test "
                   "that the archive lacks is fetched from).");
    app.add_option("--json", json_file,
                   "Also write the summary as JSON to this file (written atomically)");
    HttpCommandLine http(app, 2.0, 60);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;

    settings.root = root.empty() ? "." : root;
    settings.query.since_unix_time = unix_time_hours_ago(time_delta);
    settings.show_progress = wdl::util::stderr_is_terminal();

    if (archive_option->count() > 0) {
        archive.repo = archive_repository(archive_repo);
        archive.query = settings.query;
        archive.rules = settings.rules;
        archive.metadata_server = settings.server;
        return wdl::util::report_errors([&] {
            HubArchive hub(HubSettings::from_environment(), archive, http.options(), jobs);
            hub.set_verbosity(settings.verbosity);
            auto summary = download_archive(hub, settings.root, std::cout, settings.show_progress);
            print_summary(summary, std::cout);
            if (!json_file.empty())
                wdl::util::write_file_atomically(json_file, summary_json(summary).dump(4) + "\n");
            bool complete = summary.files_failed == 0 && summary.tests_failed == 0 &&
                            summary.folders_failed == 0;
            return complete ? 0 : 1;
        });
    }
    return wdl::util::report_errors([&] {
        HttpClient client(http.options());
        auto summary = download_finished_runs(settings, client, std::cout);
        print_summary(summary, std::cout);
        if (!json_file.empty())
            wdl::util::write_file_atomically(json_file, summary_json(summary).dump(4) + "\n");
        return summary.failed == 0 && summary.bad_pages == 0 ? 0 : 1;
    });
}
