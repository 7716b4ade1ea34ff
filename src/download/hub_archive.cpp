#include "wdl/download/hub_archive.hpp"

#include <fmt/format.h>
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "wdl/download/sha256.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::download {
namespace {

using Clock = std::chrono::steady_clock;

// Fishtest's finished_runs query takes a test for LTC when its base time is at least this.
constexpr double kLtcMinimumBaseTime = 40;
// A file whose body fails its sha256 this often is left out: the archive itself is wrong.
constexpr int kVerificationAttempts = 2;
constexpr int kMaxRedirects = 5;
constexpr auto kProgressInterval = std::chrono::milliseconds(100);

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return std::string(value);
}

std::string trimmed(std::string text) {
    auto is_space = [](unsigned char c) { return std::isspace(c) != 0; };
    while (!text.empty() && is_space(text.back())) text.pop_back();
    auto start = std::find_if_not(text.begin(), text.end(), is_space);
    return std::string(start, text.end());
}

// huggingface_hub's reading of a boolean environment variable.
bool is_true(const std::optional<std::string>& value) {
    if (!value) return false;
    auto upper = *value;
    for (auto& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    return upper == "1" || upper == "ON" || upper == "YES" || upper == "TRUE";
}

std::filesystem::path hub_home() {
    if (auto home = environment("HF_HOME")) return *home;
    if (auto cache = environment("XDG_CACHE_HOME"))
        return std::filesystem::path(*cache) / "huggingface";
    return std::filesystem::path(environment("HOME").value_or(".")) / ".cache" / "huggingface";
}

std::string without_trailing_slash(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

// Each segment percent-encoded, the '/' between them kept.
std::string encode_path(const std::string& path) {
    std::string encoded;
    std::size_t start = 0;
    while (true) {
        auto slash = path.find('/', start);
        encoded += percent_encode(path.substr(start, slash - start));
        if (slash == std::string::npos) return encoded;
        encoded += '/';
        start = slash + 1;
    }
}

bool is_date_folder_name(std::string_view name) {
    if (name.size() != 8 || name[2] != '-' || name[5] != '-') return false;
    for (std::size_t i : {0, 1, 3, 4, 6, 7})
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    return true;
}

// A glob such as allow_patterns takes ("25-09-*" or "25-09-*/*/*.pgn.gz") selects the date
// folders its first segment matches; Python's fnmatch lets '*' match any character, as
// fnmatch(3) without FNM_PATHNAME does.
bool matches_any(const std::string& folder, const std::vector<std::string>& globs) {
    if (globs.empty()) return true;
    for (const auto& glob : globs)
        if (::fnmatch(glob.substr(0, glob.find('/')).c_str(), folder.c_str(), 0) == 0) return true;
    return false;
}

bool ends_with(std::string_view text, std::string_view end) { return text.ends_with(end); }

std::string file_name_of(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// One entry of a tree listing page; malformed entries are ignored.
struct TreeEntry {
    bool directory = false;
    ArchiveFile file;
};

std::vector<TreeEntry> parse_tree_page(const std::string& body) {
    auto page = parse_server_json(body);
    if (!page.is_array()) throw Error("a tree listing that is not a JSON array");
    std::vector<TreeEntry> entries;
    for (const auto& item : page) {
        if (!item.is_object() || !item.contains("path") || !item["path"].is_string()) continue;
        TreeEntry entry;
        entry.directory = item.value("type", "") == "directory";
        entry.file.path = item["path"].get<std::string>();
        if (auto size = item.find("size"); size != item.end() && size->is_number_unsigned())
            entry.file.size = size->get<std::uint64_t>();
        if (auto lfs = item.find("lfs"); lfs != item.end() && lfs->is_object()) {
            if (auto oid = lfs->find("oid"); oid != lfs->end() && oid->is_string())
                entry.file.sha256 = oid->get<std::string>();
            if (auto size = lfs->find("size"); size != lfs->end() && size->is_number_unsigned())
                entry.file.size = size->get<std::uint64_t>();
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

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

// Passes whole lines to `out`, each after wiping the progress line, so that no line of the
// log lands in the middle of it.
class LogBesideProgress : public std::stringbuf {
  public:
    LogBesideProgress(std::ostream& out, util::ProgressLine& line) : out_(out), line_(line) {}

  protected:
    int sync() override {
        line_.clear();
        out_ << str() << std::flush;
        str("");
        return 0;
    }

  private:
    std::ostream& out_;
    util::ProgressLine& line_;
};

}  // namespace

HubSettings HubSettings::from_environment() {
    HubSettings settings;
    if (auto endpoint = environment("HF_ENDPOINT"))
        settings.endpoint = without_trailing_slash(*endpoint);
    if (auto token = environment("HF_TOKEN")) {
        settings.token = trimmed(*token);
    } else {
        std::ifstream file(environment("HF_TOKEN_PATH").value_or((hub_home() / "token").string()));
        std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        if (auto from_file = trimmed(text); !from_file.empty()) settings.token = from_file;
    }
    if (settings.token && settings.token->empty()) settings.token.reset();
    settings.offline = is_true(environment("HF_HUB_OFFLINE"));
    return settings;
}

void print_summary(const ArchiveDownloadSummary& summary, std::ostream& out) {
    int skipped = summary.skipped_by_query;
    std::string reasons;
    if (summary.skipped_by_query > 0)
        reasons = fmt::format("by the query: {}", summary.skipped_by_query);
    for (auto [reason, count] : summary.skipped) {
        skipped += count;
        reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : ", ", describe(reason), count);
    }
    out << "Finished downloading from the archive.\n"
        << fmt::format(
               "Tests seen: {}, selected: {}, skipped: {}{}, failed: {}; metadata back-filled: "
               "{}.\n",
               summary.tests_seen, summary.tests_selected, skipped,
               reasons.empty() ? "" : " (" + reasons + ")", summary.tests_failed,
               summary.metadata_backfilled)
        << fmt::format("Files already present: {}, downloaded: {} ({}), failed: {}.\n",
                       summary.files_present, summary.files_downloaded,
                       format_bytes(double(summary.bytes)), summary.files_failed);
    if (summary.folders_failed > 0)
        out << fmt::format("Date folders whose listing could not be read: {}.\n",
                           summary.folders_failed);
}

nlohmann::json summary_json(const ArchiveDownloadSummary& summary) {
    nlohmann::json skipped = nlohmann::json::object();
    for (auto [reason, count] : summary.skipped) skipped[std::string(describe(reason))] = count;
    return {{"tests_seen", summary.tests_seen},
            {"tests_selected", summary.tests_selected},
            {"tests_failed", summary.tests_failed},
            {"tests_skipped_by_query", summary.skipped_by_query},
            {"tests_skipped", skipped},
            {"metadata_backfilled", summary.metadata_backfilled},
            {"files_present", summary.files_present},
            {"files_downloaded", summary.files_downloaded},
            {"files_failed", summary.files_failed},
            {"bytes_downloaded", summary.bytes},
            {"date_folders_failed", summary.folders_failed}};
}

ArchiveDownloadSummary& ArchiveDownloadSummary::operator+=(const ArchiveDownloadSummary& other) {
    tests_seen += other.tests_seen;
    tests_selected += other.tests_selected;
    tests_failed += other.tests_failed;
    files_present += other.files_present;
    files_downloaded += other.files_downloaded;
    files_failed += other.files_failed;
    metadata_backfilled += other.metadata_backfilled;
    for (auto [reason, count] : other.skipped) skipped[reason] += count;
    skipped_by_query += other.skipped_by_query;
    bytes += other.bytes;
    folders_failed += other.folders_failed;
    return *this;
}

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
        int threads = std::max(1, std::min(archive_.jobs_, int(tests_.size())));
        if (threads == 1) {
            work();
        } else {
            std::vector<std::thread> workers;
            for (int i = 0; i < threads; ++i) workers.emplace_back([this] { work(); });
            for (auto& worker : workers) worker.join();
        }
        report_progress(true);
        return summary_;
    }

  private:
    enum class Outcome { present, downloaded, failed };

    void work() {
        HttpClient client(archive_.http_);
        if (archive_.verbosity_ >= 2)
            client.set_attempt_observer([this](const AttemptReport& report) {
                say(fmt::format("  {} (HTTP {}, {} bytes){}", report.url, report.status,
                                report.bytes,
                                report.failure.empty() ? "" : fmt::format(": {}", report.failure)));
            });
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
            if (ends_with(file.path, ".pgn.gz"))
                complete &=
                    fetch(client, file, folder / file_name_of(file.path)) != Outcome::failed;
        if (!complete) count([](ArchiveDownloadSummary& summary) { ++summary.tests_failed; });
    }

    // The test's run metadata: the archive's <id>.json, else fishtest's /api/get_run/<id>
    // (written where the archive's would be); nothing, reported, if neither can be had.
    std::optional<nlohmann::json> metadata(HttpClient& client, const ArchiveTest& test,
                                           const std::filesystem::path& folder) {
        auto local = fishtest::metadata_path(folder, test.id);
        auto listed = std::find_if(test.files.begin(), test.files.end(), [&](const auto& file) {
            return file_name_of(file.path) == test.id + ".json";
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
        if (!ends_with(file.path, ".pgn.gz")) return true;
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
        bool is_game = ends_with(file.path, ".pgn.gz");
        int failures = 0, bad_bodies = 0;
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
                ++failures;
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
            std::optional<Sha256> hash(std::in_place);
            if (offset > 0) hash->update_from_file(part, offset);
            if (offset == file.size && std::filesystem::exists(part)) return hash->hex_digest();

            PartFile out(part);
            RequestOptions request{archive_.credentials_for(url), false, false, offset};
            auto on_head = [&](const ResponseHead& head) {
                if (head.status == 206 && starts_at(head, offset)) {
                    out.open(true);
                } else if (head.status == 200) {
                    hash.emplace();  // the server ignored the Range: start over
                    out.open(false);
                }
            };
            auto on_body = [&](std::string_view bytes) {
                if (!out.is_open()) return;  // an error page or a redirect's body
                out.write(bytes);
                hash->update(bytes);
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
                if (size == file.size) return hash->hex_digest();
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
            if (ends_with(file.path, ".pgn.gz")) finish_file(file, Outcome::failed);
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

HubArchive::HubArchive(HubSettings hub, ArchiveSelection selection, HttpOptions http, int jobs)
    : hub_(std::move(hub)), selection_(std::move(selection)), http_(http), jobs_(jobs) {
    hub_.endpoint = without_trailing_slash(hub_.endpoint);
}

HubArchive::~HubArchive() = default;

std::vector<std::string> HubArchive::credentials_for(const std::string& url) const {
    if (!hub_.token || url_origin(url) != url_origin(hub_.endpoint)) return {};
    return {"Authorization: Bearer " + *hub_.token};
}

std::string HubArchive::api_url(const std::string& what) const {
    return fmt::format("{}/api/datasets/{}/{}", hub_.endpoint, selection_.repo, what);
}

std::string HubArchive::resolve_url(const std::string& path) {
    return fmt::format("{}/datasets/{}/resolve/{}/{}", hub_.endpoint, selection_.repo, commit(),
                       encode_path(path));
}

HttpClient& HubArchive::lister() {
    if (!lister_) lister_ = std::make_unique<HttpClient>(http_);
    return *lister_;
}

const std::string& HubArchive::commit() {
    std::lock_guard lock(commit_mutex_);
    if (commit_) return *commit_;
    if (hub_.offline)
        throw Error(fmt::format(
            "HF_HUB_OFFLINE is set, and reading the archive {} needs {} (the listing of revision "
            "{}, then the files): unset HF_HUB_OFFLINE to download",
            selection_.repo, hub_.endpoint, selection_.revision));
    auto url = api_url("revision/" + percent_encode(selection_.revision));
    auto info = parse_server_json(lister().get(url, {credentials_for(url)}));
    auto sha = info.is_object() ? info.value("sha", "") : "";
    if (sha.size() != 40 || sha.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw Error(
            fmt::format("{}: no commit for revision {} in the answer", url, selection_.revision));
    commit_ = sha;
    return *commit_;
}

std::vector<ArchiveFile> HubArchive::list(const std::string& folder, bool recursive,
                                          std::vector<std::string>* directories) {
    auto url = api_url(fmt::format("tree/{}{}{}", commit(), folder.empty() ? "" : "/",
                                   encode_path(folder))) +
               (recursive ? "?recursive=true&expand=false" : "?expand=false");
    std::vector<ArchiveFile> files;
    std::set<std::string> pages;
    // A server that links back to a page it sent must not keep us paging forever.
    while (pages.insert(url).second) {
        ResponseHead head;
        auto body = lister().get(url, {credentials_for(url)}, &head);
        for (auto& entry : parse_tree_page(body)) {
            if (!entry.directory)
                files.push_back(std::move(entry.file));
            else if (directories)
                directories->push_back(std::move(entry.file.path));
        }
        auto next = next_page_link(head.header("link").value_or(""));
        if (!next) break;
        url = resolve_location(url, *next);
    }
    return files;
}

std::vector<std::string> HubArchive::date_folders() {
    std::vector<std::string> directories;
    list("", false, &directories);
    std::vector<std::string> folders;
    for (const auto& directory : directories)
        if (is_date_folder_name(directory) && matches_any(directory, selection_.date_globs))
            folders.push_back(directory);
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    return folders;
}

std::vector<ArchiveTest> HubArchive::tests_in(const std::string& date_folder) {
    std::map<std::string, ArchiveTest> tests;
    for (auto& file : list(date_folder, true, nullptr)) {
        // date/<id>/<id>.json or date/<id>/<id>[-<task>].pgn.gz; anything else is not ours.
        auto first = file.path.find('/');
        auto second = file.path.find('/', first + 1);
        if (first == std::string::npos || second == std::string::npos ||
            file.path.substr(0, first) != date_folder ||
            file.path.find('/', second + 1) != std::string::npos)
            continue;
        auto id = file.path.substr(first + 1, second - first - 1);
        auto name = file_name_of(file.path);
        bool is_metadata = name == id + ".json";
        bool is_games = ends_with(name, ".pgn.gz") && fishtest::test_id_of(name) == id;
        if (!fishtest::is_valid_test_id(id) || !(is_metadata || is_games)) continue;
        auto& test = tests[id];
        test.date_folder = date_folder;
        test.id = id;
        test.files.push_back(std::move(file));
    }
    std::vector<ArchiveTest> sorted;
    for (auto& [id, test] : tests) {
        std::sort(test.files.begin(), test.files.end(),
                  [](const auto& a, const auto& b) { return a.path < b.path; });
        sorted.push_back(std::move(test));
    }
    return sorted;
}

ArchiveDownloadSummary HubArchive::download(const std::vector<ArchiveTest>& tests,
                                            const std::filesystem::path& root, std::ostream& log,
                                            const ProgressSink& progress) {
    std::filesystem::create_directories(root);
    if (!tests.empty()) commit();  // resolved before the threads share it
    return Transfers(*this, tests, root, log, progress).run();
}

ArchiveDownloadSummary download_archive(HubArchive& archive, const std::filesystem::path& root,
                                        std::ostream& log, bool show_progress) {
    auto folders = archive.date_folders();
    log << fmt::format("{} date folders selected in the archive (commit {}).", folders.size(),
                       archive.commit())
        << std::endl;
    util::ProgressLine line(show_progress);
    ArchiveDownloadSummary total;
    for (std::size_t i = 0; i < folders.size(); ++i) {
        std::vector<ArchiveTest> tests;
        try {
            tests = archive.tests_in(folders[i]);
        } catch (const std::exception& error) {
            line.clear();
            log << fmt::format("Error: the listing of {}: {}", folders[i], error.what())
                << std::endl;
            ++total.folders_failed;
            continue;
        }
        auto describe = [&](const ArchiveProgress& progress) {
            auto done = double(progress.bytes_done);
            double fraction = progress.bytes_total > 0 ? done / double(progress.bytes_total) : 1;
            line.show(fmt::format("{} ({}/{}): files {}/{}, {} at {}/s, {} left", folders[i], i + 1,
                                  folders.size(), progress.files_done, progress.files_total,
                                  format_bytes(done),
                                  format_bytes(progress.seconds > 0 ? done / progress.seconds : 0),
                                  util::estimated_time_left(progress.seconds, fraction)));
        };
        LogBesideProgress buffer(log, line);
        std::ostream folder_log(&buffer);
        total += archive.download(tests, root, folder_log,
                                  line.enabled() ? ProgressSink(describe) : ProgressSink());
        folder_log.flush();
    }
    line.clear();
    return total;
}

}  // namespace wdl::download
