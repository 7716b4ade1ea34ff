#pragma once
// The fishtest game archive on the Hugging Face Hub (the dataset official-stockfish/fishtest_pgns,
// laid out YY-MM-DD/<id>/<id>.pgn.gz with <id>.json): listing it and downloading tests into the
// layout the fishtest downloader writes, through the Hub's HTTP API as huggingface_hub uses it.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/download/finished_runs.hpp"
#include "wdl/download/http_client.hpp"
#include "wdl/fishtest/run_metadata.hpp"

namespace wdl::download {

// Where the Hub is and who asks, from the environment variables huggingface_hub reads.
struct HubSettings {
    std::string endpoint = "https://huggingface.co";  // HF_ENDPOINT
    // HF_TOKEN, else the file $HF_HOME/token (HF_HOME defaults to ~/.cache/huggingface); sent
    // as "Authorization: Bearer" to the endpoint's host only.
    std::optional<std::string> token;
    bool offline = false;  // HF_HUB_OFFLINE=1 or true: no request at all

    static HubSettings from_environment();
};

// "YY-MM-DD": the archive's date folders, named after the tests' start (UTC), as the fishtest
// downloader names them.
bool is_date_folder_name(std::string_view name);

// One file of the archive, as the listing describes it.
struct ArchiveFile {
    std::string path;  // relative to the repository's root: "25-09-01/<id>/<id>.pgn.gz"
    std::uint64_t size = 0;
    std::string sha256;  // the listing's lfs.oid, lower-case hex; empty when it gives none
};

// One page of a tree listing (GET /api/datasets/REPO/tree/REV/PATH): its files (path, size,
// the lfs.oid if it is a SHA-256) and directories; malformed entries are skipped. Throws
// wdl::Error for a body that is no JSON array (or nests too deep).
struct TreePage {
    std::vector<ArchiveFile> files;
    std::vector<std::string> directories;
};
TreePage parse_tree_page(const std::string& body);

// The files of one test: its .pgn.gz ones and its .json (when the archive has it).
struct ArchiveTest {
    std::string date_folder;  // "YY-MM-DD"
    std::string id;
    std::vector<ArchiveFile> files;
};

// What to take from the archive.
struct ArchiveSelection {
    std::string repo = "official-stockfish/fishtest_pgns";
    std::string revision = "main";
    // Over the YY-MM-DD folders, matched as fnmatch does (huggingface_hub's allow_patterns):
    // "25-09-*"; a second segment selects test ids too ("25-09-01/68b5*"). Empty: everything.
    std::vector<std::string> date_globs;
    // Applied to each test's .json: ltc_only, success_only, yellow_only and username (what
    // fishtest's own query filters by); since_unix_time is not used.
    FinishedRunsQuery query;
    fishtest::SelectionRules rules;
    // Fishtest, whose /api/get_run/<id> back-fills a .json the archive lacks.
    std::string metadata_server = "https://tests.stockfishchess.org";
};

struct ArchiveDownloadSummary {
    int tests_seen = 0;
    int tests_selected = 0;
    int tests_failed = 0;  // no metadata to select by, or a file that could not be had
    int files_present = 0;
    int files_downloaded = 0;
    int files_failed = 0;
    int metadata_backfilled = 0;
    std::map<fishtest::RunSkipReason, int> skipped;
    int skipped_by_query = 0;  // not LTC, not green, not yellow or not the user's (as asked)
    std::uint64_t bytes = 0;   // transferred in this run
    int folders_failed = 0;    // date folders whose listing could not be read

    ArchiveDownloadSummary& operator+=(const ArchiveDownloadSummary& other);
};

void print_summary(const ArchiveDownloadSummary& summary, std::ostream& out);
nlohmann::json summary_json(const ArchiveDownloadSummary& summary);

// Where a download stands, for a progress line.
struct ArchiveProgress {
    int files_done = 0;  // downloaded, present or failed
    int files_total = 0;
    std::uint64_t bytes_done = 0;   // of this run's transfers
    std::uint64_t bytes_total = 0;  // listed sizes of what is still to transfer, plus bytes_done
    double seconds = 0;
};

// Called from the transfer threads (serialized), often: keep it cheap.
using ProgressSink = std::function<void(const ArchiveProgress&)>;

// A view of one revision of the archive. Requests go through HttpClients with `http`'s retry
// rules; 429s wait as the server asks. Listings (date_folders, tests_in) share one client: one
// caller at a time; a download() may run beside a listing (its threads have clients of their
// own), so a caller can list the next batch while the current one downloads.
class HubArchive {
  public:
    HubArchive(HubSettings hub, ArchiveSelection selection, HttpOptions http, int jobs);
    ~HubArchive();
    HubArchive(const HubArchive&) = delete;
    HubArchive& operator=(const HubArchive&) = delete;

    // The commit the revision points to, resolved once (on first use) and used for every
    // request of the run, so that a push in the middle cannot mix two versions.
    const std::string& commit();
    // The root's YY-MM-DD folders that match the selection's globs, sorted.
    std::vector<std::string> date_folders();
    // The tests in one date folder that the globs select, sorted by id.
    std::vector<ArchiveTest> tests_in(const std::string& date_folder);
    // Downloads these tests' files into root/<date>/<id>/ (the layout scoreWDLstat reads):
    // first each test's .json (back-filled from the metadata server when the archive lacks
    // it), which the selection's filters are applied to, then its games, verified against
    // the listing's size and sha256, resumed from a .part file, `jobs` transfers at once.
    // Failures are reported on `log` and counted; only a bad root throws.
    ArchiveDownloadSummary download(const std::vector<ArchiveTest>& tests,
                                    const std::filesystem::path& root, std::ostream& log,
                                    const ProgressSink& progress = {});

    // 0: a line per game file downloaded and per failure; 1: also per file present or test
    // skipped, and each retry; 2: also each request.
    void set_verbosity(int verbosity) { verbosity_ = verbosity; }

  private:
    class Transfers;

    // The Authorization header for a URL of the endpoint's origin, nothing for any other.
    std::vector<std::string> credentials_for(const std::string& url) const;
    std::string api_url(const std::string& what) const;
    std::string resolve_url(const std::string& path);
    // The files (and the directories, if asked) under a folder of the pinned commit, every
    // page of the listing.
    std::vector<ArchiveFile> list(const std::string& folder, bool recursive,
                                  std::vector<std::string>* directories);
    // The client of the listings, made on first use.
    HttpClient& lister();

    HubSettings hub_;
    ArchiveSelection selection_;
    HttpOptions http_;
    int jobs_;
    int verbosity_ = 0;
    std::optional<std::string> commit_;
    std::mutex commit_mutex_;
    std::unique_ptr<HttpClient> lister_;
};

// What download_fishtest_pgns --archive does: lists the selected date folders one at a time
// (so memory holds one folder's listing) and downloads their tests into `root`. A folder whose
// listing fails is reported and counted; a root listing that fails throws. The progress line,
// if shown, tells files, bytes, rate and time left.
ArchiveDownloadSummary download_archive(HubArchive& archive, const std::filesystem::path& root,
                                        std::ostream& log, bool show_progress);

}  // namespace wdl::download
