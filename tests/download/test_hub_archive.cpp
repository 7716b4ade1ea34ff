#include <catch2/catch.hpp>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "local_http_server.hpp"
#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/download/http_headers.hpp"
#include "wdl/download/hub_archive.hpp"
#include "wdl/download/sha256.hpp"
#include "wdl/fishtest/run_metadata.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace wdl::download;
using namespace wdl::testing;

namespace {

const std::string kRepo = "official-stockfish/fishtest_pgns";
const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";
const std::string kToken = "hf_test_token";

std::string sha256_of(const std::string& bytes) {
    Sha256 hash;
    hash.update(bytes);
    return hash.hex_digest();
}

// Changes the answer the server would give; applied to the next requests of a path, one each.
using Fault = std::function<void(Response&)>;

// The Hub and its storage host, as two servers (two origins): the Hub's API (revision, tree
// listings in shuffled pages linked by Link headers, resolve answering game files with a 302
// to the storage host, HEAD with X-Linked-Etag) and fishtest's get_run; the storage host
// answers Range requests. Faults script failures per path.
struct FakeHub {
    std::map<std::string, std::string> files;   // path in the repository -> bytes
    std::set<std::string> without_listed_sha;   // game files whose listing lacks lfs.oid
    std::set<std::string> gone;                 // listed, but resolve answers 404
    std::map<std::string, json> runs;           // get_run answers
    std::map<std::string, int> corrupt_bodies;  // storage answers with one byte changed
    std::map<std::string, std::vector<Fault>> hub_faults, storage_faults;
    std::size_t page_size = 3;
    std::unique_ptr<LocalHttpServer> hub, storage;

    void start() {
        storage = std::make_unique<LocalHttpServer>(
            [this](const Request& request) { return answer_storage(request); });
        hub = std::make_unique<LocalHttpServer>(
            [this](const Request& request) { return answer_hub(request); });
    }

    void add_test(const std::string& date, const std::string& id, const fs::path& corpus_folder,
                  const std::string& corpus_id) {
        for (const auto& entry : fs::directory_iterator(corpus_folder)) {
            auto name = entry.path().filename().string();
            name.replace(0, corpus_id.size(), id);
            files[date + "/" + id + "/" + name] = read_text_file(entry.path());
        }
    }

    std::string resolve_path(const std::string& path) const {
        return "/datasets/" + kRepo + "/resolve/" + kCommit + "/" + path;
    }

    HubSettings settings() const {
        HubSettings settings;
        settings.endpoint = hub->url();
        settings.token = kToken;
        return settings;
    }

    static Response faulted(std::map<std::string, std::vector<Fault>>& faults,
                            const std::string& path, Response response) {
        auto queued = faults.find(path);
        if (queued == faults.end() || queued->second.empty()) return response;
        auto fault = queued->second.front();
        queued->second.erase(queued->second.begin());
        fault(response);
        return response;
    }

    Response answer_hub(const Request& request) {
        return faulted(hub_faults, request.path, answer_hub_normally(request));
    }

    Response answer_hub_normally(const Request& request) {
        const std::string api = "/api/datasets/" + kRepo;
        if (request.path == api + "/revision/main")
            return {200, json{{"id", kRepo}, {"sha", kCommit}}.dump(), {}, {}};
        if (request.path.starts_with(api + "/tree/" + kCommit)) return listing(request);
        if (request.path.starts_with("/api/get_run/")) {
            auto run = runs.find(request.path.substr(13));
            if (run == runs.end()) return {404, "not found", {}, {}};
            return {200, run->second.dump(), {}, {}};
        }
        auto resolve = "/datasets/" + kRepo + "/resolve/" + kCommit + "/";
        if (!request.path.starts_with(resolve)) return {404, "not found", {}, {}};
        auto path = request.path.substr(resolve.size());
        auto file = files.find(path);
        if (file == files.end() || gone.contains(path)) return {404, "Entry not found", {}, {}};
        if (!path.ends_with(".pgn.gz")) return {200, file->second, {}, {}};
        Response redirect{302, "", {}, {}};
        redirect.headers = {{"Location", storage->url() + "/lfs/" + path + "?X-Amz-Expires=3600"},
                            {"X-Linked-Etag", "\"" + sha256_of(file->second) + "\""},
                            {"X-Linked-Size", std::to_string(file->second.size())},
                            {"X-Repo-Commit", kCommit}};
        return redirect;
    }

    Response listing(const Request& request) {
        auto prefix = "/api/datasets/" + kRepo + "/tree/" + kCommit;
        auto folder = request.path.substr(prefix.size());
        if (folder.starts_with("/")) folder.erase(0, 1);
        bool recursive = request.parameters.count("recursive") > 0 &&
                         request.parameters.at("recursive") == "true";
        std::vector<json> entries;
        std::set<std::string> directories;
        for (const auto& [path, bytes] : files) {
            if (!folder.empty() && !path.starts_with(folder + "/")) continue;
            auto rest = path.substr(folder.empty() ? 0 : folder.size() + 1);
            for (auto slash = rest.find('/'); slash != std::string::npos;
                 slash = rest.find('/', slash + 1)) {
                directories.insert((folder.empty() ? "" : folder + "/") + rest.substr(0, slash));
                if (!recursive) break;
            }
            if (!recursive && rest.find('/') != std::string::npos) continue;
            json entry{{"type", "file"}, {"path", path}, {"size", bytes.size()}, {"oid", "b1ob"}};
            if (path.ends_with(".pgn.gz") && !without_listed_sha.contains(path))
                entry["lfs"] = {
                    {"oid", sha256_of(bytes)}, {"size", bytes.size()}, {"pointerSize", 134}};
            entries.push_back(entry);
        }
        for (const auto& directory : directories)
            entries.push_back({{"type", "directory"}, {"path", directory}, {"oid", "7ree"}});
        // The Hub promises no order.
        std::shuffle(entries.begin(), entries.end(), std::mt19937(7));
        std::size_t start =
            request.parameters.count("cursor") ? std::stoul(request.parameters.at("cursor")) : 0;
        json page = json::array();
        for (auto i = start; i < std::min(entries.size(), start + page_size); ++i)
            page.push_back(entries[i]);
        Response response{200, page.dump(), {}, {}};
        if (start + page_size < entries.size()) {
            // (the Host header, not hub->url(): the handler may not touch the server that runs it)
            auto next = "http://" + request.header("host") + request.path +
                        "?cursor=" + std::to_string(start + page_size);
            if (recursive) next += "&recursive=true";
            response.headers = {{"Link", "<" + next + ">; rel=\"next\""}};
        }
        return response;
    }

    Response answer_storage(const Request& request) {
        return faulted(storage_faults, request.path, answer_storage_normally(request));
    }

    Response answer_storage_normally(const Request& request) {
        if (!request.path.starts_with("/lfs/")) return {404, "not found", {}, {}};
        auto path = request.path.substr(5);
        auto file = files.find(path);
        if (file == files.end()) return {404, "not found", {}, {}};
        auto bytes = file->second;
        if (auto bad = corrupt_bodies.find(path); bad != corrupt_bodies.end() && bad->second > 0) {
            --bad->second;
            bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x55);
        }
        auto range = request.header("range");
        if (range.starts_with("bytes=")) {
            auto from = std::stoul(range.substr(6));
            Response partial{206, bytes.substr(from), {}, {}};
            partial.headers = {{"Content-Range", "bytes " + std::to_string(from) + "-" +
                                                     std::to_string(bytes.size() - 1) + "/" +
                                                     std::to_string(bytes.size())}};
            return partial;
        }
        return {200, bytes, {}, {}};
    }

    std::vector<Request> hub_requests_for(const std::string& path) const {
        std::vector<Request> found;
        for (const auto& request : hub->requests())
            if (request.path == path) found.push_back(request);
        return found;
    }

    std::vector<Request> storage_requests_for(const std::string& path) const {
        std::vector<Request> found;
        for (const auto& request : storage->requests())
            if (request.path == "/lfs/" + path) found.push_back(request);
        return found;
    }
};

HttpOptions quick_http() {
    HttpOptions http;
    http.pause_between_requests = std::chrono::milliseconds(0);
    http.first_retry_delay = std::chrono::milliseconds(10);
    http.stall_timeout = std::chrono::seconds(1);
    http.max_retries = 3;
    return http;
}

// Every test of the fake archive, whose metadata server is the fake Hub.
ArchiveSelection every_test(const FakeHub& hub) {
    ArchiveSelection selection;
    selection.query.ltc_only = false;
    selection.metadata_server = hub.hub->url();
    return selection;
}

// Every regular file under `root`, relative path -> bytes.
std::map<std::string, std::string> tree_of(const fs::path& root) {
    std::map<std::string, std::string> tree;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file())
            tree[fs::relative(entry.path(), root).string()] = read_text_file(entry.path());
    return tree;
}

ArchiveDownloadSummary download_all(HubArchive& archive, const fs::path& root, std::ostream& log) {
    ArchiveDownloadSummary total;
    for (const auto& folder : archive.date_folders())
        total += archive.download(archive.tests_in(folder), root, log);
    return total;
}

// The corpus's tests, as they are.
FakeHub corpus_hub() {
    FakeHub hub;
    for (const auto& date : fs::directory_iterator(corpus_path())) {
        if (!date.is_directory() || date.path().filename().string().size() != 8) continue;
        for (const auto& test : fs::directory_iterator(date.path()))
            hub.add_test(date.path().filename().string(), test.path().filename().string(),
                         test.path(), test.path().filename().string());
    }
    return hub;
}

const std::string kCutTest = "25-01-17/8318de79f00c9216f63c89e0/8318de79f00c9216f63c89e0.pgn.gz";

// The corpus's tests as they are, plus tests that meet a fault each, made of the same games.
struct FaultyArchive {
    FakeHub hub;
    std::string cut, corrupt_once, corrupt_always, missing, throttled, expired, no_json,
        no_listed_sha;

    FaultyArchive() : hub(corpus_hub()) {
        auto source = corpus_path() / "23-03-14" / "2415af9da521a8da87cf894a";
        int n = 0;
        auto add = [&](std::string& game_path) {
            auto id =
                std::string("aaaaaaaaaaaaaaaaaaaaaa") + char('0' + n / 10) + char('0' + n % 10);
            ++n;
            hub.add_test("25-09-01", id, source, "2415af9da521a8da87cf894a");
            game_path = "25-09-01/" + id + "/" + id + ".pgn.gz";
        };
        add(cut);
        add(corrupt_once);
        add(corrupt_always);
        add(missing);
        add(throttled);
        add(expired);
        add(no_json);
        add(no_listed_sha);
        hub.files["README.md"] = "# fishtest games\n";
        hub.files["scripts/upload.py"] = "print()\n";
        // The listing names it, the Hub then has it no more.
        hub.gone.insert(missing);
        hub.storage_faults["/lfs/" + cut] = {[](Response& r) { r.close_after_bytes = 40000; }};
        hub.corrupt_bodies[corrupt_once] = 1;
        hub.corrupt_bodies[corrupt_always] = INT_MAX;
        hub.hub_faults[hub.resolve_path(throttled)] = {[](Response& r) {
            r = {429, "slow down", {}, {}};
            r.headers = {{"Retry-After", "1"}};
        }};
        hub.storage_faults["/lfs/" + expired] = {[](Response& r) {
            r = {403, "Request has expired", {}, {}};
        }};
        auto json_path = no_json.substr(0, no_json.size() - 7) + ".json";
        auto id = no_json.substr(9, 24);
        hub.runs[id] = json::parse(hub.files.at(json_path));
        hub.files.erase(json_path);
        hub.without_listed_sha.insert(no_listed_sha);
        hub.start();
    }
};

}  // namespace

TEST_CASE("SHA-256 agrees with the examples of FIPS 180-2") {
    CHECK(sha256_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    Sha256 in_pieces;
    in_pieces.update("ab");
    in_pieces.update("c");
    CHECK(in_pieces.hex_digest() == sha256_of("abc"));
}

TEST_CASE("response headers: Link's next page, the wait a 429 asks for, origins and redirects") {
    CHECK(next_page_link("<https://h/api/x?cursor=2>; rel=\"next\"") == "https://h/api/x?cursor=2");
    CHECK(next_page_link("<https://h/p1>; rel=\"prev\", <https://h/p3>; rel=\"next\"") ==
          "https://h/p3");
    CHECK_FALSE(next_page_link("<https://h/p1>; rel=\"prev\""));
    CHECK_FALSE(next_page_link(""));

    ResponseHead head;
    head.headers = {{"retry-after", "7"}};
    CHECK(requested_wait(head) == std::chrono::seconds(7));
    head.headers = {{"ratelimit", "\"api\";r=0;t=55"}};
    CHECK(requested_wait(head) == std::chrono::seconds(55));
    head.headers = {{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}};
    CHECK_FALSE(requested_wait(head));

    CHECK(url_origin("https://huggingface.co/api/x") == "https://huggingface.co:443");
    CHECK(url_origin("HTTP://127.0.0.1:8080/a") == "http://127.0.0.1:8080");
    CHECK(url_origin("http://127.0.0.1:8080/a") != url_origin("http://127.0.0.1:8081/a"));
    CHECK(resolve_location("http://a:1/x/y?q", "https://cdn/z") == "https://cdn/z");
    CHECK(resolve_location("http://a:1/x/y?q", "/z?s") == "http://a:1/z?s");
    CHECK(resolve_location("http://a:1/x/y?q", "z") == "http://a:1/x/z");
}

TEST_CASE("the Hub's settings come from the environment as huggingface_hub reads them") {
    auto home = fresh_directory("hub_home");
    write_text_file(home / "token", "hf_from_file\n");
    ::setenv("HF_HOME", home.c_str(), 1);
    ::unsetenv("HF_TOKEN");
    ::unsetenv("HF_TOKEN_PATH");
    ::setenv("HF_ENDPOINT", "http://mirror.example/", 1);
    ::setenv("HF_HUB_OFFLINE", "true", 1);
    auto settings = HubSettings::from_environment();
    CHECK(settings.endpoint == "http://mirror.example");
    CHECK(settings.token == "hf_from_file");
    CHECK(settings.offline);
    ::setenv("HF_TOKEN", "hf_from_variable", 1);
    ::setenv("HF_HUB_OFFLINE", "0", 1);
    settings = HubSettings::from_environment();
    CHECK(settings.token == "hf_from_variable");
    CHECK_FALSE(settings.offline);
    for (auto name : {"HF_HOME", "HF_TOKEN", "HF_ENDPOINT", "HF_HUB_OFFLINE"}) ::unsetenv(name);
}

TEST_CASE("date folders: every page of the root listing, filtered by the globs, sorted") {
    FaultyArchive archive;
    archive.hub.page_size = 2;
    // A listing asked too often waits as the RateLimit header says.
    archive.hub.hub_faults["/api/datasets/" + kRepo + "/tree/" + kCommit] = {[](Response& r) {
        r = {429, "slow down"};
        r.headers = {{"RateLimit", "\"api\";r=0;t=1"}};
    }};
    auto selection = every_test(archive.hub);
    HubArchive all(archive.hub.settings(), selection, quick_http(), 1);
    CHECK(all.commit() == kCommit);
    auto started = std::chrono::steady_clock::now();
    CHECK(all.date_folders() == std::vector<std::string>{"23-03-14", "24-02-03", "24-07-21",
                                                         "24-11-05", "25-01-17", "25-04-09",
                                                         "25-09-01"});
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::seconds(1));
    selection.date_globs = {"24-*", "25-0[4-9]-*/*/*.pgn.gz"};
    HubArchive some(archive.hub.settings(), selection, quick_http(), 1);
    CHECK(some.date_folders() ==
          std::vector<std::string>{"24-02-03", "24-07-21", "24-11-05", "25-04-09", "25-09-01"});
    auto tests = some.tests_in("24-07-21");
    REQUIRE(tests.size() == 1);
    CHECK(tests[0].id == "716838bf67ed35143299f7d3");
    CHECK(tests[0].files.size() == 4);  // three .pgn.gz and the .json, from several pages
    for (const auto& file : tests[0].files)
        CHECK(file.size == archive.hub.files.at(file.path).size());
    CHECK(some.tests_in("25-09-01").size() == 8);

    // A second segment selects test ids.
    selection.date_globs = {"25-09-01/*0[15]/*.pgn.gz", "24-07-*"};
    HubArchive one(archive.hub.settings(), selection, quick_http(), 1);
    CHECK(one.date_folders() == std::vector<std::string>{"24-07-21", "25-09-01"});
    auto chosen = one.tests_in("25-09-01");
    REQUIRE(chosen.size() == 2);
    CHECK(chosen[0].id == "aaaaaaaaaaaaaaaaaaaaaa01");
    CHECK(chosen[1].id == "aaaaaaaaaaaaaaaaaaaaaa05");
    CHECK(one.tests_in("24-07-21").size() == 1);
}

TEST_CASE("the archive arrives byte for byte through every fault, at 1 and 4 jobs alike",
          "[threaded]") {
    std::map<std::string, std::string> trees[2];
    int index = 0;
    for (int jobs : {1, 4}) {
        FaultyArchive archive;
        auto root = fresh_directory("hub_archive_" + std::to_string(jobs));
        HubArchive hub(archive.hub.settings(), every_test(archive.hub), quick_http(), jobs);
        std::ostringstream log;
        auto started = std::chrono::steady_clock::now();
        auto summary = download_all(hub, root, log);
        auto seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        INFO(log.str());

        // Everything but the two bad files, byte for byte; the back-filled .json as fishtest
        // wrote it.
        auto tree = tree_of(root);
        for (const auto& [path, bytes] : archive.hub.files) {
            bool in_date_folder = path.find('/') == 8;
            if (path == archive.corrupt_always || path == archive.missing || !in_date_folder)
                continue;
            INFO(path);
            REQUIRE(tree.count(path) == 1);
            CHECK(tree.at(path) == bytes);
        }
        CHECK_FALSE(fs::exists(root / archive.corrupt_always));
        CHECK_FALSE(fs::exists(root / (archive.corrupt_always + ".part")));
        CHECK_FALSE(fs::exists(root / archive.missing));
        CHECK_FALSE(fs::exists(root / "README.md"));
        auto backfilled = archive.no_json.substr(0, archive.no_json.size() - 7) + ".json";
        CHECK(tree.at(backfilled) ==
              wdl::fishtest::format_metadata(archive.hub.runs.begin()->second));
        CHECK(summary.metadata_backfilled == 1);
        CHECK(summary.files_failed == 2);
        CHECK(summary.tests_failed == 2);
        CHECK(summary.tests_selected == summary.tests_seen);
        CHECK(has_line_with(log.str(), archive.corrupt_always, "sha256"));
        CHECK(has_line_with(log.str(), archive.missing, "404"));

        // The faults were met as they should be: a resume from where the cut left off, a
        // second resolve after the storage link expired, the wait a 429 asked for.
        auto cut = archive.hub.storage_requests_for(archive.cut);
        REQUIRE(cut.size() == 2);
        CHECK(cut[1].header("range") == "bytes=40000-");
        CHECK(archive.hub.hub_requests_for(archive.hub.resolve_path(archive.expired)).size() == 2);
        CHECK(archive.hub.storage_requests_for(archive.corrupt_once).size() == 2);
        CHECK(archive.hub.storage_requests_for(archive.corrupt_always).size() == 2);
        CHECK(seconds >= 1.0);
        CHECK(archive.hub.hub_requests_for(archive.hub.resolve_path(archive.throttled)).size() ==
              2);
        // The token reaches the Hub, every time, and the storage host never.
        // (fishtest's get_run, here on the same server, is no Hub request)
        for (const auto& request : archive.hub.hub->requests())
            CHECK(request.header("authorization") ==
                  (request.path.starts_with("/api/get_run/") ? "" : "Bearer " + kToken));
        for (const auto& request : archive.hub.storage->requests())
            CHECK(request.header("authorization").empty());
        // The game file without a listed sha256 was checked against the HEAD's X-Linked-Etag.
        auto heads = archive.hub.hub_requests_for(archive.hub.resolve_path(archive.no_listed_sha));
        CHECK(std::count_if(heads.begin(), heads.end(),
                            [](const Request& r) { return r.method == "HEAD"; }) == 1);

        // A rerun transfers nothing: only the listings, and the two bad files again.
        archive.hub.hub->clear_requests();
        archive.hub.storage->clear_requests();
        std::ostringstream rerun_log;
        auto rerun = download_all(hub, root, rerun_log);
        CHECK(rerun.files_downloaded == 0);
        CHECK(rerun.files_present == summary.files_present + summary.files_downloaded);
        for (const auto& request : archive.hub.storage->requests())
            CHECK(request.path == "/lfs/" + archive.corrupt_always);
        for (const auto& request : archive.hub.hub->requests())
            CHECK((request.path.find("/tree/") != std::string::npos ||
                   request.path == archive.hub.resolve_path(archive.corrupt_always) ||
                   request.path == archive.hub.resolve_path(archive.missing)));
        CHECK(tree_of(root) == tree);
        trees[index++] = tree;
    }
    CHECK(trees[0] == trees[1]);
}

TEST_CASE("a download interrupted in the middle resumes with Range and a 200 starts it over") {
    FakeHub hub = corpus_hub();
    auto full = hub.files.at(kCutTest);
    hub.storage_faults["/lfs/" + kCutTest] = {[](Response& r) { r.stall_after_bytes = 30000; }};
    hub.start();
    auto selection = every_test(hub);
    selection.date_globs = {"25-01-17"};
    auto http = quick_http();
    http.max_retries = 0;
    auto root = fresh_directory("hub_archive_resume");
    std::ostringstream log;
    HubArchive first(hub.settings(), selection, http, 1);
    auto stopped = download_all(first, root, log);
    CHECK(stopped.files_failed == 1);
    CHECK_FALSE(fs::exists(root / kCutTest));
    CHECK(fs::file_size(root / (kCutTest + ".part")) == 30000);

    HubArchive second(hub.settings(), selection, http, 1);
    auto resumed = download_all(second, root, log);
    INFO(log.str());
    CHECK(resumed.files_downloaded == 1);
    CHECK(read_text_file(root / kCutTest) == full);
    CHECK_FALSE(fs::exists(root / (kCutTest + ".part")));
    auto requests = hub.storage_requests_for(kCutTest);
    REQUIRE(requests.size() == 2);
    CHECK(requests[1].header("range") == "bytes=30000-");

    // A leftover part file that the storage host will not continue (200, not 206) is replaced.
    fs::remove(root / kCutTest);
    fs::remove(root / (kCutTest + ".sha256"));
    write_text_file(root / (kCutTest + ".part"), std::string(1000, 'x'));
    hub.storage_faults["/lfs/" + kCutTest] = {[&](Response& r) { r = {200, full, {}, {}}; }};
    HubArchive third(hub.settings(), selection, http, 1);
    auto restarted = download_all(third, root, log);
    CHECK(restarted.files_downloaded == 1);
    CHECK(read_text_file(root / kCutTest) == full);
}

TEST_CASE("the query's filters and the selection rules apply to each test's .json") {
    FakeHub hub = corpus_hub();
    hub.start();
    auto run = [&](ArchiveSelection selection, const std::string& name) {
        HubArchive archive(hub.settings(), selection, quick_http(), 2);
        std::ostringstream log;
        auto root = fresh_directory("hub_archive_" + name);
        auto summary = download_all(archive, root, log);
        return std::make_pair(summary, tree_of(root));
    };
    auto ltc = every_test(hub);
    ltc.query.ltc_only = true;  // the two tests at 60+0.6
    auto [ltc_summary, ltc_tree] = run(ltc, "ltc");
    CHECK(ltc_summary.tests_seen == 6);
    CHECK(ltc_summary.tests_selected == 2);
    CHECK(ltc_summary.skipped_by_query == 4);
    CHECK(ltc_tree.count("24-07-21/716838bf67ed35143299f7d3/716838bf67ed35143299f7d3-3.pgn.gz"));
    CHECK_FALSE(ltc_tree.count(kCutTest));

    auto standard = every_test(hub);
    standard.rules.standard_chess_only = true;
    auto [standard_summary, standard_tree] = run(standard, "standard");
    CHECK(standard_summary.tests_selected == 5);
    CHECK(standard_summary.skipped.at(wdl::fishtest::RunSkipReason::frc_book) == 1);

    auto someone = every_test(hub);
    someone.query.username = "nobody";
    CHECK(run(someone, "username").first.skipped_by_query == 6);
}

TEST_CASE("with HF_HUB_OFFLINE nothing is requested and the error says what is needed") {
    FakeHub hub = corpus_hub();
    hub.start();
    auto settings = hub.settings();
    settings.offline = true;
    HubArchive archive(settings, every_test(hub), quick_http(), 1);
    CHECK_THROWS_WITH(archive.date_folders(), Catch::Contains("HF_HUB_OFFLINE"));
    CHECK(hub.hub->requests().empty());
}

TEST_CASE("download_fishtest_pgns --archive reads HF_ENDPOINT and HF_TOKEN") {
    FakeHub hub = corpus_hub();
    hub.start();
    auto folder = fresh_directory("hub_archive_program");
    auto pgns = folder / "pgns";
    std::vector<std::string> command{"/usr/bin/env",
                                     "HF_ENDPOINT=" + hub.hub->url(),
                                     "HF_TOKEN=" + kToken,
                                     program_path("download_fishtest_pgns").string(),
                                     "--archive",
                                     "--dates",
                                     "24-*,25-0[1-3]-*",
                                     "--jobs",
                                     "2",
                                     "--ltc_only",
                                     "False",
                                     "--path",
                                     pgns.string(),
                                     "--pause",
                                     "0",
                                     "--json",
                                     (folder / "summary.json").string()};
    ChildProcess child(command, folder / "output.txt");
    int exit_code = child.wait(std::chrono::seconds(60));
    INFO(child.output());
    CHECK(exit_code == 0);
    auto tree = tree_of(pgns);
    int files = 0;
    for (const auto& [path, bytes] : hub.files) {
        if (!path.starts_with("24-") && !path.starts_with("25-01-")) {
            CHECK_FALSE(tree.count(path));
            continue;
        }
        CHECK(tree.at(path) == bytes);
        ++files;
    }
    auto summary = json::parse(read_text_file(folder / "summary.json"));
    CHECK(summary.at("files_downloaded") == files);
    CHECK(summary.at("tests_seen") == 4);
    for (const auto& request : hub.storage->requests())
        CHECK(request.header("authorization").empty());
    for (const auto& request : hub.hub->requests())
        CHECK(request.header("authorization") == "Bearer " + kToken);

    // Offline: no request, a message, failure.
    hub.hub->clear_requests();
    command.insert(command.begin() + 1, "HF_HUB_OFFLINE=1");
    ChildProcess offline(command, folder / "offline.txt");
    CHECK(offline.wait(std::chrono::seconds(60)) == 1);
    CHECK(offline.output().find("HF_HUB_OFFLINE") != std::string::npos);
    CHECK(hub.hub->requests().empty());
}

TEST_CASE("a tree listing page keeps its well-formed entries and skips the rest") {
    auto sha = sha256_of("abc");
    std::string upper_sha;
    for (char c : sha) upper_sha += char(std::toupper(static_cast<unsigned char>(c)));
    json page = json::array(
        {{{"type", "file"},
          {"path", "d/a.pgn.gz"},
          {"size", 10},
          {"lfs", {{"oid", upper_sha}, {"size", 99}}}},
         {{"type", "file"}, {"path", "d/b.json"}, {"size", 5}},
         {{"type", "file"}, {"path", "d/c.pgn.gz"}, {"size", 7}, {"lfs", {{"oid", "not-a-hash"}}}},
         {{"type", "directory"}, {"path", "d"}},
         {{"type", 3}, {"path", "d/x"}},
         {{"type", "file"}, {"path", 7}},
         {{"type", "file"}, {"path", "d/n.json"}, {"size", -1}},
         {{"path", "d/untyped"}},
         "not an object"});
    auto parsed = parse_tree_page(page.dump());
    REQUIRE(parsed.files.size() == 4);
    CHECK(parsed.files[0].path == "d/a.pgn.gz");
    CHECK(parsed.files[0].size == 99);  // the LFS file's size, not its pointer's
    CHECK(parsed.files[0].sha256 == sha);
    CHECK(parsed.files[1].sha256.empty());
    CHECK(parsed.files[2].sha256.empty());
    CHECK(parsed.files[3].size == 0);
    CHECK(parsed.directories == std::vector<std::string>{"d"});
    CHECK_THROWS_AS(parse_tree_page("{\"path\": \"x\"}"), wdl::Error);
    CHECK_THROWS_AS(parse_tree_page("[1, 2"), wdl::Error);
}
