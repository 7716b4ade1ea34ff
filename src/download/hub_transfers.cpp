// The transfers of HubArchive::download: each test's metadata, the filters, and its game files
// verified and resumed, on `jobs` threads.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "wdl/download/downloader.hpp"
#include "wdl/download/hub_archive.hpp"
#include "wdl/download/sha256.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::download {
// Named, not anonymous: HubArchive::Transfers (external linkage) holds these in its lambdas.
namespace hub_transfers_detail {

using Clock = std::chrono::steady_clock;

// Fishtest's finished_runs query takes a test for LTC when its base time is at least this.
constexpr double kLtcMinimumBaseTime = 40;
// A file whose body fails its sha256 this often is left out: the archive itself is wrong.
constexpr int kVerificationAttempts = 2;
constexpr int kMaxRedirects = 5;
constexpr auto kProgressInterval = std::chrono::milliseconds(100);

// Why the query's filters leave this run out, if they do; every field is optional, and a run
// that does not say what the filter asks about is left out.
std::optional<std::string> query_mismatch(const nlohmann::json& run,
                                          const FinishedRunsQuery& query) {
    auto args = run.find("args");
    bool has_args = args != run.end() && args->is_object();
    if (query.ltc_only) {
        std::optional<double> base;
        if (auto tc_base = run.find("tc_base"); tc_base != run.end() && tc_base->is_number())
            base = tc_base->get<double>();
        else if (auto tc = fishtest::parse_run_metadata(run).tc)
            base = fishtest::base_time(*tc);
        if (!base || *base < kLtcMinimumBaseTime) return "not LTC";
    }
    auto is_flag_set = [&](const char* name) {
        auto flag = run.find(name);
        return flag != run.end() && flag->is_boolean() && flag->get<bool>();
    };
    if (query.success_only && !is_flag_set("is_green")) return "not green";
    if (query.yellow_only && !is_flag_set("is_yellow")) return "not yellow";
    if (!query.username.empty()) {
        bool same = has_args && args->contains("username") && (*args)["username"].is_string() &&
                    (*args)["username"].get<std::string>() == query.username;
        if (!same) return "not by " + query.username;
    }
    return std::nullopt;
}

std::string read_small_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error("cannot read " + file.string());
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

// The sidecar <file>.sha256 (sha256sum's format) records that the file verified, so that a
// rerun checks a file by its size and this record instead of hashing it again.
std::filesystem::path verified_record_path(const std::filesystem::path& file) {
    return file.string() + ".sha256";
}

std::optional<std::string> recorded_sha256(const std::filesystem::path& file) {
    std::ifstream in(verified_record_path(file));
    std::string digest;
    if (!(in >> digest) || digest.size() != 64) return std::nullopt;
    return digest;
}

void record_sha256(const std::filesystem::path& file, const std::string& digest) {
    util::write_file_atomically(verified_record_path(file),
                                digest + "  " + file.filename().string() + "\n");
}

// An ETag as the Hub sends it: "abc", W/"abc".
std::string unquoted_etag(std::string etag) {
    if (etag.starts_with("W/")) etag.erase(0, 2);
    if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"')
        etag = etag.substr(1, etag.size() - 2);
    return etag;
}

// A file being written: appended to from `offset` (Range) or written anew.
class PartFile {
  public:
    explicit PartFile(std::filesystem::path path) : path_(std::move(path)) {}
    ~PartFile() { close(); }
    PartFile(const PartFile&) = delete;
    PartFile& operator=(const PartFile&) = delete;

    void open(bool append) {
        close();
        file_ = std::fopen(path_.c_str(), append ? "ab" : "wb");
        if (!file_) throw Error("cannot write " + path_.string());
    }
    void write(std::string_view bytes) {
        if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
            throw Error("cannot write " + path_.string());
    }
    // Flushed and synced, so that the rename that follows publishes complete data.
    void finish() {
        if (!file_) return;
        bool good = std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
        close();
        if (!good) throw Error("cannot write " + path_.string());
    }
    bool is_open() const { return file_ != nullptr; }

  private:
    void close() {
        if (file_) std::fclose(file_);
        file_ = nullptr;
    }
    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
};

}  // namespace hub_transfers_detail
using namespace hub_transfers_detail;

// The work of one download() call: its tests shared by `jobs` threads, each with a client.
class HubArchive::Transfers {
  public:
    Transfers(HubArchive& archive, const std::vector<ArchiveTest>& tests,
              const std::filesystem::path& root, std::ostream& log, const ProgressSink& progress)
        : archive_(archive), tests_(tests), root_(root), log_(log), progress_sink_(progress) {
        for (const auto& test : tests) {
            progress_.files_total += int(test.files.size());
            for (const auto& file : test.files) progress_.bytes_total += file.size;
        }
    }

    ArchiveDownloadSummary run() {
        auto threads = std::size_t(std::max(1, std::min(archive_.jobs_, int(tests_.size()))));
        // One client per thread (a libcurl handle serves one transfer at a time), made here so
        // that a failure to make one is the caller's exception, not a thread's.
        std::vector<std::unique_ptr<HttpClient>> clients;
        for (std::size_t i = 0; i < threads; ++i) clients.push_back(make_client());
        if (threads == 1) {
            work(*clients[0]);
        } else {
            std::vector<std::thread> workers;
            for (auto& client : clients) workers.emplace_back([this, &client] { work(*client); });
            for (auto& worker : workers) worker.join();
        }
        report_progress(true);
        return summary_;
    }

  private:
    enum class Outcome { present, downloaded, failed };

    std::unique_ptr<HttpClient> make_client() {
        auto client = std::make_unique<HttpClient>(archive_.http_);
        if (archive_.verbosity_ >= 2)
            client->set_attempt_observer([this](const AttemptReport& report) {
                say(fmt::format("  {} (HTTP {}, {} bytes){}", report.url, report.status,
                                report.bytes,
                                report.failure.empty() ? "" : fmt::format(": {}", report.failure)));
            });
        return client;
    }

    void work(HttpClient& client) {
        for (std::size_t index; (index = next_test_++) < tests_.size();) {
            try {
                process(client, tests_[index]);
            } catch (const std::exception& error) {
                // Only the disk fails this way (a folder that cannot be made, say).
                fail_test(tests_[index], error.what());
            }
        }
    }

    void process(HttpClient& client, const ArchiveTest& test) {
        count([](ArchiveDownloadSummary& summary) { ++summary.tests_seen; });
        if (!fishtest::is_valid_test_id(test.id) || !is_date_folder_name(test.date_folder)) {
            fail_test(test, "not a YY-MM-DD/<fishtest id> folder");
            drop_games(test);
            return;
        }
        auto folder = root_ / test.date_folder / test.id;
        std::filesystem::create_directories(folder);
        auto run = metadata(client, test, folder);
        if (!run) {
            drop_games(test);
            return;
        }
        if (auto why = query_mismatch(*run, archive_.selection_.query)) {
            skip(test, *why, [](ArchiveDownloadSummary& summary) { ++summary.skipped_by_query; });
            return;
        }
        if (auto reason = fishtest::reason_to_skip(fishtest::parse_run_metadata(*run),
                                                   archive_.selection_.rules)) {
            skip(test, std::string(describe(*reason)),
                 [&](ArchiveDownloadSummary& summary) { ++summary.skipped[*reason]; });
            return;
        }
        count([](ArchiveDownloadSummary& summary) { ++summary.tests_selected; });
        bool complete = true;
        for (const auto& file : test.files)
            if (file.path.ends_with(".pgn.gz"))
                complete &= fetch(client, file,
                                  folder / std::filesystem::path(file.path).filename().string()) !=
                            Outcome::failed;
        if (!complete) count([](ArchiveDownloadSummary& summary) { ++summary.tests_failed; });
    }

    // The test's run metadata: the archive's <id>.json, else fishtest's /api/get_run/<id>
    // (written where the archive's would be); nothing, reported, if neither can be had.
    std::optional<nlohmann::json> metadata(HttpClient& client, const ArchiveTest& test,
                                           const std::filesystem::path& folder) {
        auto local = fishtest::metadata_path(folder, test.id);
        auto listed = std::find_if(test.files.begin(), test.files.end(), [&](const auto& file) {
            return std::filesystem::path(file.path).filename().string() == test.id + ".json";
        });
        try {
            if (listed != test.files.end()) {
                if (fetch(client, *listed, local) == Outcome::failed) {
                    fail_test(test, "its metadata could not be downloaded");
                    return std::nullopt;
                }
            } else if (!std::filesystem::exists(local)) {
                auto body = client.get(get_run_url(archive_.selection_.metadata_server, test.id));
                auto run = parse_server_json(body);
                if (!run.is_object()) throw Error("the server's run is not a JSON object");
                fishtest::write_metadata(local, run);
                count([&](ArchiveDownloadSummary& summary) {
                    ++summary.metadata_backfilled;
                    summary.bytes += body.size();
                });
                say(fmt::format("Back-filled the missing metadata of {}/{} from {}.",
                                test.date_folder, test.id, archive_.selection_.metadata_server));
                return run;
            }
            auto run = parse_server_json(read_small_file(local));
            if (!run.is_object()) throw Error(local.string() + " is not a JSON object");
            return run;
        } catch (const std::exception& error) {
            fail_test(test, fmt::format("no metadata to select it by: {}", error.what()));
            return std::nullopt;
        }
    }

    // Makes `target` the listed file, verified: kept if it is already, else downloaded.
    Outcome fetch(HttpClient& client, const ArchiveFile& file,
                  const std::filesystem::path& target) {
        Outcome outcome = Outcome::failed;
        try {
            outcome = is_present(client, file, target) ? Outcome::present
                                                       : download(client, file, target);
        } catch (const std::exception& error) {
            say(fmt::format("Error: {}: {}", file.path, error.what()));
        }
        count([&](ArchiveDownloadSummary& summary) {
            ++(outcome == Outcome::present      ? summary.files_present
               : outcome == Outcome::downloaded ? summary.files_downloaded
                                                : summary.files_failed);
        });
        finish_file(file, outcome);
        return outcome;
    }

    bool is_present(HttpClient& client, const ArchiveFile& file,
                    const std::filesystem::path& target) {
        std::error_code error;
        auto size = std::filesystem::file_size(target, error);
        if (error || size != file.size) return false;
        if (!file.path.ends_with(".pgn.gz")) return true;
        auto recorded = recorded_sha256(target);
        if (recorded && (file.sha256.empty() || *recorded == file.sha256)) return true;
        if (recorded) return false;  // the archive's file changed
        // A copy from elsewhere (snapshot_download, an earlier version): hashed once.
        Sha256 hash;
        hash.update_from_file(target);
        auto digest = hash.hex_digest();
        auto expected = expected_sha256(client, file);
        if (!expected.empty() && digest != expected) return false;
        record_sha256(target, digest);
        return true;
    }

    // The listing's sha256, else the X-Linked-Etag of a HEAD of the file (the Hub's sha256
    // of an LFS file); empty if neither tells.
    std::string expected_sha256(HttpClient& client, const ArchiveFile& file) {
        if (!file.sha256.empty()) return file.sha256;
        auto url = archive_.resolve_url(file.path);
        RequestOptions request{archive_.credentials_for(url), true, false, 0};
        auto head = client.send(url, request, {}, [](std::string_view) {});
        if (head.status >= 400) return {};
        auto etag = unquoted_etag(head.header("x-linked-etag").value_or(""));
        return etag.size() == 64 ? etag : std::string();
    }

    Outcome download(HttpClient& client, const ArchiveFile& file,
                     const std::filesystem::path& target) {
        auto part = std::filesystem::path(target.string() + ".part");
        bool is_game = file.path.ends_with(".pgn.gz");
        int failures = 0, bad_bodies = 0;
        std::uint64_t last_reached = part_size(part);
        while (true) {
            try {
                auto digest = transfer(client, file, part);
                auto expected = is_game ? expected_sha256(client, file) : std::string();
                if (!expected.empty() && digest != expected) {
                    std::filesystem::remove(part);
                    if (++bad_bodies >= kVerificationAttempts)
                        throw Error(fmt::format(
                            "its content failed its sha256 {} times (expected {}, got {}); "
                            "left out",
                            bad_bodies, expected, digest));
                    say(fmt::format("Warning: {}: sha256 mismatch, downloading it again.",
                                    file.path));
                    continue;
                }
                if (is_game && expected.empty())
                    say(fmt::format("Warning: {}: no sha256 to verify it by; its size matches.",
                                    file.path));
                std::filesystem::rename(part, target);
                if (is_game) record_sha256(target, digest);
                if (archive_.verbosity_ >= 1 || is_game)
                    say(fmt::format("Downloaded {} ({}).", file.path,
                                    format_bytes(double(file.size))));
                return Outcome::downloaded;
            } catch (const HttpError& error) {
                // An attempt that brought bytes (a cut connection, resumed) is no failure
                // towards the limit: only attempts in a row that bring nothing are.
                auto reached = part_size(part);
                failures = reached > last_reached ? 1 : failures + 1;
                last_reached = reached;
                if (!error.transient() || failures > archive_.http_.max_retries) {
                    say(fmt::format("Error: {}: {}{}", file.path, error.what(),
                                    error.transient()
                                        ? fmt::format(" (gave up after {} attempts)", failures)
                                        : ""));
                    return Outcome::failed;
                }
                auto delay = client.retry_delay(failures, error);
                if (archive_.verbosity_ >= 1)
                    say(fmt::format("  {}: {}; retry in {:g} s", file.path, error.what(),
                                    std::chrono::duration<double>(delay).count()));
                std::this_thread::sleep_for(delay);
            }
        }
    }

    // Brings `part` to the listed size, resuming what an earlier attempt (or run) left, and
    // returns its sha256. Starts at the Hub, follows its redirect to the storage host (which
    // gets no credentials); a storage link that has expired (403, 410) is a transient failure,
    // and the retry resolves the file again. Throws HttpError.
    std::string transfer(HttpClient& client, const ArchiveFile& file,
                         const std::filesystem::path& part) {
        auto url = archive_.resolve_url(file.path);
        for (int redirects = 0; redirects <= kMaxRedirects; ++redirects) {
            std::error_code error;
            std::uint64_t offset = std::filesystem::file_size(part, error);
            if (error || offset > file.size) {
                std::filesystem::remove(part, error);
                offset = 0;
            }
            if (offset == file.size && std::filesystem::exists(part)) {
                Sha256 whole;  // complete, by an earlier run that stopped before verifying
                whole.update_from_file(part);
                return whole.hex_digest();
            }
            Sha256 hash;
            PartFile out(part);
            RequestOptions request{archive_.credentials_for(url), false, false, offset};
            auto on_head = [&](const ResponseHead& head) {
                if (head.status == 206 && starts_at(head, offset)) {
                    // The part on disk is read only once the server continues it.
                    hash.update_from_file(part, offset);
                    out.open(true);
                } else if (head.status == 200) {
                    out.open(false);  // the whole file, the Range ignored: start over
                }
            };
            auto on_body = [&](std::string_view bytes) {
                if (!out.is_open()) return;  // an error page or a redirect's body
                out.write(bytes);
                hash.update(bytes);
                add_bytes(bytes.size());
            };
            auto head = client.send(url, request, on_head, on_body);
            out.finish();
            if (head.status >= 300 && head.status < 400) {
                auto location = head.header("location");
                if (!location) throw HttpError("a redirect without a Location", false);
                url = resolve_location(url, *location);
                continue;
            }
            if (head.status == 206 && !starts_at(head, offset))
                throw HttpError("a partial answer from the wrong offset", true);
            if (head.status == 200 || head.status == 206) {
                auto size = std::filesystem::file_size(part);
                if (size == file.size) return hash.hex_digest();
                if (size > file.size) std::filesystem::remove(part);
                throw HttpError(fmt::format("{} bytes instead of the listed {}", size, file.size),
                                true);
            }
            bool expired_link = (head.status == 403 || head.status == 410) &&
                                url_origin(url) != url_origin(archive_.hub_.endpoint);
            if (head.status == 416) std::filesystem::remove(part, error);
            bool transient =
                expired_link || head.status == 416 || head.status == 429 || head.status >= 500;
            throw HttpError(fmt::format("HTTP status {}{}", head.status,
                                        expired_link ? " from the storage host" : ""),
                            transient, requested_wait(head));
        }
        throw HttpError(fmt::format("more than {} redirects", kMaxRedirects), false);
    }

    static std::uint64_t part_size(const std::filesystem::path& part) {
        std::error_code error;
        auto size = std::filesystem::file_size(part, error);
        return error ? 0 : size;
    }

    static bool starts_at(const ResponseHead& head, std::uint64_t offset) {
        auto range = head.header("content-range");
        return range && range->starts_with(fmt::format("bytes {}-", offset));
    }

    void skip(const ArchiveTest& test, const std::string& why,
              const std::function<void(ArchiveDownloadSummary&)>& change) {
        count(change);
        if (archive_.verbosity_ >= 1)
            say(fmt::format("Skipping test {}/{} ({}).", test.date_folder, test.id, why));
        drop_games(test);
    }

    void fail_test(const ArchiveTest& test, const std::string& why) {
        count([](ArchiveDownloadSummary& summary) { ++summary.tests_failed; });
        say(fmt::format("Error: test {}/{}: {}", test.date_folder, test.id, why));
    }

    void count(const std::function<void(ArchiveDownloadSummary&)>& change) {
        std::lock_guard lock(mutex_);
        change(summary_);
    }

    void say(const std::string& line) {
        std::lock_guard lock(mutex_);
        log_ << line << std::endl;
    }

    void add_bytes(std::uint64_t bytes) {
        {
            std::lock_guard lock(mutex_);
            summary_.bytes += bytes;
            progress_.bytes_done += bytes;
        }
        report_progress(false);
    }

    // A file is done: what it did not transfer leaves the total.
    void finish_file(const ArchiveFile& file, Outcome outcome) {
        {
            std::lock_guard lock(mutex_);
            ++progress_.files_done;
            if (outcome != Outcome::downloaded) progress_.bytes_total -= file.size;
        }
        report_progress(true);
    }

    // The games of a test that is not taken leave the progress's totals.
    void drop_games(const ArchiveTest& test) {
        for (const auto& file : test.files)
            if (file.path.ends_with(".pgn.gz")) finish_file(file, Outcome::failed);
    }

    void report_progress(bool now) {
        if (!progress_sink_) return;
        std::lock_guard lock(progress_mutex_);
        ArchiveProgress snapshot;
        {
            std::lock_guard state_lock(mutex_);
            auto time = Clock::now();
            if (!now && time - last_report_ < kProgressInterval) return;
            last_report_ = time;
            snapshot = progress_;
            snapshot.seconds = std::chrono::duration<double>(time - started_).count();
        }
        progress_sink_(snapshot);
    }

    HubArchive& archive_;
    const std::vector<ArchiveTest>& tests_;
    const std::filesystem::path& root_;
    std::ostream& log_;
    const ProgressSink& progress_sink_;
    std::atomic<std::size_t> next_test_{0};
    std::mutex mutex_;           // the summary, progress and log
    std::mutex progress_mutex_;  // one report at a time
    ArchiveDownloadSummary summary_;
    ArchiveProgress progress_;
    Clock::time_point started_ = Clock::now();
    Clock::time_point last_report_{};
};

ArchiveDownloadSummary HubArchive::download(const std::vector<ArchiveTest>& tests,
                                            const std::filesystem::path& root, std::ostream& log,
                                            const ProgressSink& progress) {
    std::filesystem::create_directories(root);
    if (!tests.empty()) commit();  // resolved before the threads share it
    return Transfers(*this, tests, root, log, progress).run();
}

}  // namespace wdl::download
