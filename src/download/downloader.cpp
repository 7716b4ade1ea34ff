#include "wdl/download/downloader.hpp"

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <set>

#include "wdl/download/game_file_check.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::download {
namespace {

using Clock = std::chrono::steady_clock;

// Paging past a few unreadable pages is worth it; past many, the server is down.
constexpr int max_bad_pages_in_a_row = 3;

// "  GET URL (attempt 2): HTTP 500, 4 bytes, failed: HTTP status 500; retry in 2 s"
std::string describe_attempt(const AttemptReport& report) {
    auto text = fmt::format("  GET {} (attempt {}): ", report.url, report.attempt);
    text += report.status != 0 ? fmt::format("HTTP {}", report.status) : "no HTTP answer";
    text += fmt::format(", {} bytes", report.bytes);
    if (report.failure.empty()) return text;
    text += fmt::format(", failed: {}", report.failure);
    if (report.retry_in)
        return text + fmt::format("; retry in {:g} s",
                                  std::chrono::duration<double>(*report.retry_in).count());
    return text + "; no retry";
}

class RunDownloader {
  public:
    RunDownloader(const DownloadSettings& settings, HttpClient& client, std::ostream& out)
        : settings_(settings),
          client_(client),
          out_(out),
          progress_(settings.show_progress),
          present_(fishtest::find_downloaded_tests(settings.root)) {
        if (settings_.verbosity >= 2)
            client_.set_attempt_observer(
                [this](const AttemptReport& report) { say(describe_attempt(report)); });
    }

    // The observer refers to this object, and the client outlives it.
    ~RunDownloader() { client_.set_attempt_observer({}); }
    RunDownloader(const RunDownloader&) = delete;
    RunDownloader& operator=(const RunDownloader&) = delete;

    DownloadSummary run() {
        say(fmt::format("Found {} downloaded tests in {} already.", present_.size(),
                        settings_.root.string()));
        int bad_pages_in_a_row = 0;
        for (int page = 1;; ++page) {
            std::vector<FinishedRun> runs;
            try {
                runs = parse_finished_runs_page(
                    client_.get(finished_runs_url(settings_.server, page, settings_.query)));
                bad_pages_in_a_row = 0;
            } catch (const std::exception& error) {
                ++summary_.bad_pages;
                say(fmt::format("Error: skipping page {} of finished runs: {}", page,
                                error.what()));
                if (++bad_pages_in_a_row < max_bad_pages_in_a_row) continue;
                say(fmt::format("Giving up after {} bad pages in a row.", bad_pages_in_a_row));
                break;
            }
            // A page with nothing new also ends the paging: a server that keeps repeating
            // itself must not keep us busy forever.
            if (runs.empty() || !has_unseen_run(runs)) break;
            for (const auto& run : runs) process(run);
        }
        progress_.clear();
        return summary_;
    }

  private:
    bool has_unseen_run(const std::vector<FinishedRun>& runs) const {
        for (const auto& run : runs)
            if (!seen_.contains(run.id)) return true;
        return false;
    }

    void process(const FinishedRun& run) {
        // Pages shift while runs finish, so a run may come twice.
        if (!seen_.insert(run.id).second) return;
        ++summary_.tests_seen;
        if (!fishtest::is_valid_test_id(run.id)) {
            fail(run.id, "not a fishtest test id");
            return;
        }
        if (auto present = present_.find(run.id); present != present_.end()) {
            ++summary_.already_present;
            complete_metadata(run, present->second);
            return;
        }
        if (settings_.verbosity >= 1)
            say(fmt::format("Collecting meta data for test {} ...", run.id));
        if (auto reason = fishtest::reason_to_skip(run.metadata, settings_.rules)) {
            ++summary_.skipped[*reason];
            if (settings_.verbosity >= 1)
                say(fmt::format("  Skipping test {} ({}) ...", run.id, describe(*reason)));
            return;
        }
        try {
            download(run, fishtest::date_folder(run.metadata));
        } catch (const std::exception& error) {
            fail(run.id, error.what());
        }
        show_progress(0);
    }

    // A run interrupted between its game file and its metadata gets the metadata now.
    void complete_metadata(const FinishedRun& run, const std::filesystem::path& folder) {
        fishtest::remove_stale_temporaries(folder, run.id);
        auto file = fishtest::metadata_path(folder, run.id);
        if (std::filesystem::exists(file) || !run.json.is_object()) return;
        try {
            fishtest::write_metadata(file, run.json);
            say(fmt::format("Wrote missing metadata {}.", file.string()));
        } catch (const std::exception& error) {
            fail(run.id, error.what());
        }
    }

    void download(const FinishedRun& run, const std::string& date) {
        auto target = fishtest::game_file_path(settings_.root, date, run.id);
        auto folder = target.parent_path();
        std::filesystem::create_directories(folder);
        fishtest::remove_stale_temporaries(folder, run.id);
        say(announcement(run, folder));
        try {
            // A 200 error page or a body cut short without a Content-Length must not become
            // the game file: a rerun would take it for downloaded.
            auto bytes = client_.get_to_file(
                run_pgns_url(settings_.server, run.id), target,
                [&](std::uint64_t received) { show_progress(received); }, gzip_file_defect);
            fishtest::write_metadata(fishtest::metadata_path(folder, run.id), run.json);
            summary_.bytes += bytes;
        } catch (...) {
            // remove() takes folders only if empty, which keeps any other files.
            std::error_code ignored;
            std::filesystem::remove(folder, ignored);
            std::filesystem::remove(folder.parent_path(), ignored);
            throw;
        }
        ++summary_.downloaded;
        present_.emplace(run.id, folder);
        if (settings_.verbosity >= 1) report_game_count(run, target);
    }

    std::string announcement(const FinishedRun& run, const std::filesystem::path& folder) const {
        std::string text = "Downloading .pgn.gz file ";
        const auto& metadata = run.metadata;
        if (auto games = metadata.games()) {
            text += fmt::format("with {} games ", *games);
            if (settings_.verbosity >= 1) {
                text += fmt::format("(WDL = {} {} {}) ", metadata.wins.value_or(0),
                                    metadata.draws.value_or(0), metadata.losses.value_or(0));
            }
        }
        if (auto controls = fishtest::time_controls(metadata);
            settings_.verbosity >= 1 && !controls.empty())
            text += fmt::format("at TC {} ", fmt::join(controls, " vs. "));
        return text + fmt::format("to {}/ ...", folder.string());
    }

    void report_game_count(const FinishedRun& run, const std::filesystem::path& file) {
        auto found = fishtest::count_finished_games(file);
        auto text = fmt::format("Download completed. The file contains {} games.", found);
        if (auto expected = run.metadata.games(); expected && found < *expected)
            text += fmt::format(" I.e. {} fewer than expected.", *expected - found);
        else if (expected && found > *expected)
            text += fmt::format(" I.e. {} more than expected.", found - *expected);
        say(text);
    }

    void show_progress(std::uint64_t current_transfer_bytes) {
        double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
        double bytes = double(summary_.bytes + current_transfer_bytes);
        progress_.show(fmt::format("tests seen {}, downloaded {}, {} at {}/s", summary_.tests_seen,
                                   summary_.downloaded, format_bytes(bytes),
                                   format_bytes(seconds > 0 ? bytes / seconds : 0)));
    }

    void fail(const std::string& id, const std::string& why) {
        ++summary_.failed;
        say(fmt::format("Error: test {}: {}", id, why));
    }

    void say(const std::string& line) {
        progress_.clear();
        out_ << line << std::endl;
    }

    const DownloadSettings& settings_;
    HttpClient& client_;
    std::ostream& out_;
    util::ProgressLine progress_;
    std::map<std::string, std::filesystem::path> present_;
    std::set<std::string> seen_;
    DownloadSummary summary_;
    Clock::time_point started_ = Clock::now();
};

}  // namespace

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    int unit = 0;
    while (bytes >= 1000 && unit < 4) {
        bytes /= 1000;
        ++unit;
    }
    return unit == 0 ? fmt::format("{:.0f} B", bytes)
                     : fmt::format("{:.1f} {}", bytes, units[unit]);
}

DownloadSummary download_finished_runs(const DownloadSettings& settings, HttpClient& client,
                                       std::ostream& out) {
    std::filesystem::create_directories(settings.root);
    return RunDownloader(settings, client, out).run();
}

void print_summary(const DownloadSummary& summary, std::ostream& out) {
    out << "Finished downloading PGNs.\n";
    int skipped = 0;
    std::string reasons;
    for (auto [reason, count] : summary.skipped) {
        skipped += count;
        reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : ", ", describe(reason), count);
    }
    out << fmt::format(
        "Tests seen: {}, already present: {}, downloaded: {} ({}), skipped: {}{}, failed: {}.\n",
        summary.tests_seen, summary.already_present, summary.downloaded,
        format_bytes(double(summary.bytes)), skipped, reasons.empty() ? "" : " (" + reasons + ")",
        summary.failed);
    if (summary.bad_pages > 0)
        out << fmt::format("Pages that could not be read: {}.\n", summary.bad_pages);
}

nlohmann::json summary_json(const DownloadSummary& summary) {
    nlohmann::json skipped = nlohmann::json::object();
    for (auto [reason, count] : summary.skipped) skipped[std::string(describe(reason))] = count;
    return {{"tests_seen", summary.tests_seen}, {"already_present", summary.already_present},
            {"downloaded", summary.downloaded}, {"failed", summary.failed},
            {"bad_pages", summary.bad_pages},   {"skipped", skipped},
            {"bytes_downloaded", summary.bytes}};
}

}  // namespace wdl::download
