#include "wdl/download/hub_archive.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "wdl/download/downloader.hpp"
#include "wdl/download/http_headers.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::download {
namespace {

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

// Globs as allow_patterns takes them ("25-09-*", "25-09-01/68b5*/*"): the first segment selects
// date folders, the second, if any, test ids in them; a file pattern after them is not used
// (a test's games and its .json come together). Python's fnmatch lets '*' match any character,
// as fnmatch(3) without FNM_PATHNAME does.
bool segment_matches(const std::string& glob, int segment, const std::string& name) {
    std::size_t start = 0;
    for (int i = 0; i < segment; ++i) {
        start = glob.find('/', start);
        if (start == std::string::npos) return true;  // the glob says nothing about it
        ++start;
    }
    auto pattern = glob.substr(start, glob.find('/', start) - start);
    return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

bool selects_folder(const std::vector<std::string>& globs, const std::string& date) {
    return globs.empty() || std::any_of(globs.begin(), globs.end(), [&](const auto& glob) {
               return segment_matches(glob, 0, date);
           });
}

bool selects_test(const std::vector<std::string>& globs, const std::string& date,
                  const std::string& id) {
    return globs.empty() || std::any_of(globs.begin(), globs.end(), [&](const auto& glob) {
               return segment_matches(glob, 0, date) && segment_matches(glob, 1, id);
           });
}

// A SHA-256 as 64 lower-case hex digits, or empty if `text` is none.
std::string sha256_hex(std::string text) {
    for (auto& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    bool valid =
        text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
    return valid ? text : std::string();
}

std::optional<std::uint64_t> size_in(const nlohmann::json& object) {
    auto size = object.find("size");
    if (size == object.end() || !size->is_number_unsigned()) return std::nullopt;
    return size->get<std::uint64_t>();
}

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

bool is_date_folder_name(std::string_view name) {
    if (name.size() != 8 || name[2] != '-' || name[5] != '-') return false;
    for (std::size_t i : {0, 1, 3, 4, 6, 7})
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    return true;
}

TreePage parse_tree_page(const std::string& body) {
    auto page = parse_server_json(body);
    if (!page.is_array()) throw Error("a tree listing that is not a JSON array");
    TreePage entries;
    for (const auto& item : page) {
        if (!item.is_object()) continue;
        auto path = item.find("path");
        auto type = item.find("type");
        if (path == item.end() || !path->is_string() || type == item.end() || !type->is_string())
            continue;
        if (*type == "directory") {
            entries.directories.push_back(path->get<std::string>());
            continue;
        }
        if (*type != "file") continue;
        ArchiveFile file;
        file.path = path->get<std::string>();
        file.size = size_in(item).value_or(0);
        if (auto lfs = item.find("lfs"); lfs != item.end() && lfs->is_object()) {
            if (auto oid = lfs->find("oid"); oid != lfs->end() && oid->is_string())
                file.sha256 = sha256_hex(oid->get<std::string>());
            file.size = size_in(*lfs).value_or(file.size);
        }
        entries.files.push_back(std::move(file));
    }
    return entries;
}

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
        auto page = parse_tree_page(body);
        std::move(page.files.begin(), page.files.end(), std::back_inserter(files));
        if (directories)
            std::move(page.directories.begin(), page.directories.end(),
                      std::back_inserter(*directories));
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
        if (is_date_folder_name(directory) && selects_folder(selection_.date_globs, directory))
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
        auto name = std::filesystem::path(file.path).filename().string();
        bool is_metadata = name == id + ".json";
        bool is_games = name.ends_with(".pgn.gz") && fishtest::test_id_of(name) == id;
        if (!fishtest::is_valid_test_id(id) || !(is_metadata || is_games)) continue;
        auto& test = tests[id];
        test.date_folder = date_folder;
        test.id = id;
        test.files.push_back(std::move(file));
    }
    std::vector<ArchiveTest> sorted;
    for (auto& [id, test] : tests) {
        if (!selects_test(selection_.date_globs, date_folder, id)) continue;
        std::sort(test.files.begin(), test.files.end(),
                  [](const auto& a, const auto& b) { return a.path < b.path; });
        sorted.push_back(std::move(test));
    }
    return sorted;
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
