#include <zlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "local_http_server.hpp"
#include "program_runner.hpp"
#include "wdl/download/finished_runs.hpp"
#include "wdl/download/game_file_check.hpp"
#include "wdl/download/http_client.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/fishtest/run_metadata.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace wdl::download;
using namespace wdl::testing;

namespace {

const std::string downloader = program_path("download_fishtest_pgns").string();
const std::string metadata_downloader = program_path("download_missing_metadata").string();

// Runs a command to its end with its output captured in `output_file`.
ProgramRun run_to_end(const std::vector<std::string>& command, const fs::path& output_file) {
    ChildProcess child(command, output_file);
    int exit_code = child.wait();
    return {exit_code, child.output()};
}

std::string gzip(const std::string& text) {
    z_stream stream{};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string compressed(deflateBound(&stream, uLong(text.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = uInt(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
    stream.avail_out = uInt(compressed.size());
    deflate(&stream, Z_FINISH);
    compressed.resize(stream.total_out);
    deflateEnd(&stream);
    return compressed;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string read_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

// `games` short games; pseudo-random comments keep the .pgn.gz big enough to cut in the middle.
std::string pgn_games(const std::string& id, int games) {
    std::string text;
    std::uint32_t state = 12345;
    for (int game = 0; game < games; ++game) {
        std::string noise;
        for (int i = 0; i < 200; ++i) {
            state = state * 1664525u + 1013904223u;
            noise += char('a' + (state >> 24) % 26);
        }
        text += "[Event \"" + id + "\"]\n[Result \"1-0\"]\n\n1. e4 {+0.30/10 0.1s} e5 {" + noise +
                "} 1-0\n\n";
    }
    return text;
}

json run(const std::string& start_time, const std::string& tc, const std::string& book, int wins,
         int draws, int losses) {
    return {{"args",
             {{"tc", tc},
              {"new_tc", tc},
              {"book", book},
              {"threads", 1},
              {"sprt", {{"elo0", 0}, {"elo1", 2}}}}},
            {"results", {{"wins", wins}, {"draws", draws}, {"losses", losses}}},
            {"start_time", start_time}};
}

// A fishtest stand-in: finished_runs pages of `page_size` runs, get_run and run_pgns, plus
// scripted answers that replace the next normal answers for a path, one each.
struct FakeFishtest {
    std::vector<std::pair<std::string, json>> runs;
    std::map<std::string, std::string> game_files;  // id -> .pgn.gz bytes
    std::map<std::string, std::vector<Response>> scripted;
    std::size_t page_size = 2;

    void add(const std::string& id, json metadata, int games = 3) {
        metadata["_id"] = id;
        runs.emplace_back(id, std::move(metadata));
        game_files[id] = gzip(pgn_games(id, games));
    }

    Response answer(const Request& request) {
        if (auto queued = scripted.find(request.path);
            queued != scripted.end() && !queued->second.empty()) {
            auto response = queued->second.front();
            queued->second.erase(queued->second.begin());
            if (response.body.empty()) response.body = answer_normally(request).body;
            return response;
        }
        return answer_normally(request);
    }

    Response answer_normally(const Request& request) {
        if (request.path == "/api/finished_runs") {
            auto page = std::stoul(request.parameters.at("page"));
            json body = json::object();
            for (auto i = (page - 1) * page_size; i < std::min(runs.size(), page * page_size); ++i)
                body[runs[i].first] = runs[i].second;
            return {200, body.dump(), {}, {}};
        }
        for (const auto& [id, metadata] : runs) {
            if (request.path == "/api/run_pgns/" + id + ".pgn.gz")
                return {200, game_files.at(id), {}, {}};
            if (request.path == "/api/get_run/" + id) return {200, metadata.dump(), {}, {}};
        }
        return {404, "not found", {}, {}};
    }
};

struct Scenario {
    FakeFishtest fishtest;
    std::unique_ptr<LocalHttpServer> server;
    fs::path folder;

    explicit Scenario(const std::string& name) : folder(fresh_directory("download_" + name)) {}

    void start() {
        server = std::make_unique<LocalHttpServer>(
            [this](const Request& request) { return fishtest.answer(request); });
    }

    fs::path pgns() const { return folder / "pgns"; }

    std::vector<std::string> command(std::vector<std::string> options) const {
        std::vector<std::string> command{downloader, "--server",      server->url(),
                                         "--path",   pgns().string(), "--pause",
                                         "0",        "--retry_delay", "0.01"};
        command.insert(command.end(), options.begin(), options.end());
        return command;
    }

    ProgramRun download(std::vector<std::string> options = {}) const {
        return run_to_end(command(std::move(options)), folder / "output.txt");
    }

    std::vector<Request> requests_for(const std::string& path) const {
        std::vector<Request> matching;
        for (const auto& request : server->requests())
            if (request.path == path) matching.push_back(request);
        return matching;
    }

    bool has_test(const std::string& date, const std::string& id) const {
        auto test_folder = pgns() / date / id;
        return fs::exists(test_folder / (id + ".pgn.gz")) &&
               fs::exists(test_folder / (id + ".json"));
    }

    // Files left anywhere under pgns/ whose names are not final game or metadata names.
    std::vector<std::string> stray_files() const {
        std::vector<std::string> stray;
        if (!fs::exists(pgns())) return stray;
        for (const auto& entry : fs::recursive_directory_iterator(pgns())) {
            auto name = entry.path().filename().string();
            if (entry.is_regular_file() && !wdl::fishtest::is_game_file_name(name) &&
                !name.ends_with(".json"))
                stray.push_back(name);
        }
        return stray;
    }
};

}  // namespace

TEST_CASE("the gzip check accepts only gzip members that all inflate to their end") {
    Scenario scenario("gzip-check");
    auto file = [&](const std::string& name, const std::string& bytes) {
        std::ofstream(scenario.folder / name, std::ios::binary) << bytes;
        return scenario.folder / name;
    };
    auto member = gzip(pgn_games("a", 40));
    // Many members whose total spans several of the check's read buffers, as fishtest serves.
    std::string members;
    for (int i = 0; i < 60; ++i) members += gzip(pgn_games(std::to_string(i), 40));
    REQUIRE(members.size() > (1 << 18));
    CHECK_FALSE(gzip_file_defect(file("one.gz", member)));
    CHECK_FALSE(gzip_file_defect(file("many.gz", members)));
    CHECK_FALSE(gzip_file_defect(file("empty-member.gz", gzip(""))));

    auto defect = [&](const std::string& name, const std::string& bytes) {
        return gzip_file_defect(file(name, bytes)).value_or("accepted");
    };
    CHECK(contains(defect("html.gz", "<html><body>Server busy</body></html>"), "not a gzip file"));
    CHECK(contains(defect("empty.gz", ""), "empty"));
    CHECK(contains(defect("half.gz", member.substr(0, member.size() / 2)),
                   "truncated gzip member 1"));
    CHECK(contains(defect("no-trailer.gz", member.substr(0, member.size() - 4)),
                   "truncated gzip member 1"));
    CHECK(contains(defect("cut-last.gz", members.substr(0, members.size() - 100)),
                   "truncated gzip member 60"));
    CHECK(contains(defect("junk-after.gz", members + "<html>"),
                   "unexpected bytes after gzip member 60"));
    auto bad_crc = member;
    bad_crc[bad_crc.size() - 6] ^= 1;  // the trailer is CRC-32 and length, 4 bytes each
    CHECK(contains(defect("bad-crc.gz", bad_crc), "corrupt gzip member 1"));
    auto zlib_stream = member;
    zlib_stream[0] = 0x78;  // a zlib header is not a gzip header
    CHECK(contains(defect("zlib.gz", zlib_stream), "not a gzip file"));
    CHECK(gzip_file_defect(scenario.folder / "missing.gz"));
}

TEST_CASE("finished_runs URLs carry the filters") {
    FinishedRunsQuery query{1700000000.5, true, true, false, "a b"};
    CHECK(finished_runs_url("http://h/", 3, query) ==
          "http://h/api/finished_runs?page=3&timestamp=1700000000.5&ltc_only=1&success_only=1"
          "&username=a%20b");
    CHECK(run_pgns_url("http://h", "abc") == "http://h/api/run_pgns/abc.pgn.gz");
    CHECK(parse_finished_runs_page("{}").empty());
    CHECK(parse_finished_runs_page("null").empty());
    CHECK_THROWS(parse_finished_runs_page("[1]"));
    CHECK_THROWS(parse_finished_runs_page("<html>"));
}

TEST_CASE("server JSON nested beyond the limit, or with counts that are no integers, is refused") {
    std::string deep = "{\"r\": {\"args\": {}, \"x\": " + std::string(1000000, '[') +
                       std::string(1000000, ']') + "}}";
    CHECK_THROWS_WITH(parse_finished_runs_page(deep), Catch::Contains("nests deeper than 32"));
    // Brackets inside strings are text, not nesting.
    std::string bracketed = "{\"r\": {\"args\": {\"book\": \"" + std::string(100, '[') + "\"}}}";
    CHECK(parse_finished_runs_page(bracketed).size() == 1);
    auto runs = parse_finished_runs_page(
        R"({"r": {"args": {}, "results": {"wins": 1e30, "draws": 9223372036854775807,
            "losses": 9223372036854775807}}})");
    REQUIRE(runs.size() == 1);
    CHECK_FALSE(runs[0].metadata.wins);  // a float is no count
    CHECK(runs[0].metadata.games() == std::numeric_limits<std::int64_t>::max());  // no overflow
}

TEST_CASE("the downloader fetches new runs into YY-MM-DD/<id>/ and a rerun fetches nothing") {
    Scenario scenario("basic");
    scenario.fishtest.add("aa01", run("2024-07-21T11:26:57.000+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.add("aa02", run("2025-01-17T01:00:00+00:00", "60+0.6", "b.epd", 2, 0, 0), 2);
    scenario.fishtest.add("aa03", run("2025-01-18T01:00:00+00:00", "60+0.6", "b.epd", 2, 0, 1));
    scenario.start();

    auto first = scenario.download({"-v"});
    INFO(first.output);
    CHECK(first.exit_code == 0);
    CHECK(scenario.has_test("24-07-21", "aa01"));
    CHECK(scenario.has_test("25-01-17", "aa02"));
    CHECK(scenario.has_test("25-01-18", "aa03"));
    CHECK(read_file(scenario.pgns() / "24-07-21/aa01/aa01.pgn.gz") ==
          scenario.fishtest.game_files["aa01"]);
    CHECK(read_file(scenario.pgns() / "24-07-21/aa01/aa01.json") ==
          wdl::fishtest::format_metadata(scenario.fishtest.runs[0].second));
    CHECK(first.output.find("Download completed. The file contains 2 games.") != std::string::npos);
    CHECK(first.output.find("Tests seen: 3, already present: 0, downloaded: 3") !=
          std::string::npos);
    CHECK(scenario.stray_files().empty());

    // Pages 1 and 2 hold the runs, page 3 is empty; the default filters are in every query.
    auto pages = scenario.requests_for("/api/finished_runs");
    REQUIRE(pages.size() == 3);
    for (std::size_t i = 0; i < pages.size(); ++i) {
        CHECK(pages[i].parameters.at("page") == std::to_string(i + 1));
        CHECK(pages[i].parameters.at("ltc_only") == "1");
        CHECK_FALSE(pages[i].parameters.contains("success_only"));
        CHECK_FALSE(pages[i].parameters.contains("yellow_only"));
        CHECK_FALSE(pages[i].parameters.contains("username"));
        auto now =
            std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        CHECK(std::stod(pages[i].parameters.at("timestamp")) ==
              Approx(now - 168 * 3600).margin(120));
    }

    scenario.server->clear_requests();
    auto second = scenario.download({"--json", (scenario.folder / "summary.json").string()});
    CHECK(second.exit_code == 0);
    CHECK(second.output.find("Found 3 downloaded tests") != std::string::npos);
    CHECK(second.output.find("already present: 3, downloaded: 0") != std::string::npos);
    // The JSON twin of the summary line.
    auto summary = json::parse(read_file(scenario.folder / "summary.json"));
    CHECK(summary.at("tests_seen") == 3);
    CHECK(summary.at("already_present") == 3);
    CHECK(summary.at("downloaded") == 0);
    CHECK(summary.at("failed") == 0);
    for (const auto& request : scenario.server->requests())
        CHECK(request.path == "/api/finished_runs");
}

TEST_CASE("query options reach the server and selection options skip runs") {
    Scenario scenario("filters");
    auto spsa = run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1);
    spsa["args"]["spsa"] = {{"A", 1}};
    scenario.fishtest.add("bb01", spsa);
    scenario.fishtest.add("bb02", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 0, 0, 0));
    scenario.fishtest.add("bb03",
                          run("2024-07-21T11:26:57+00:00", "60+0.6", "DFRC_openings.epd", 1, 1, 1));
    scenario.fishtest.add("bb04", run("2024-07-21T11:26:57+00:00", "10+0.1", "b.epd", 1, 1, 1));
    auto odds = run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1);
    odds["args"]["new_tc"] = "240+2.4";
    scenario.fishtest.add("bb05", odds);
    scenario.fishtest.add("bb06", run("2024-07-21T11:26:57+00:00", "180+1.8", "b.epd", 1, 1, 1));
    // The limits are inclusive: base times equal to them are inside.
    scenario.fishtest.add("bb07", run("2024-07-21T11:26:57+00:00", "20+0.2", "b.epd", 1, 1, 1));
    scenario.fishtest.add("bb08", run("2024-07-21T11:26:57+00:00", "200+2", "b.epd", 1, 1, 1));
    auto both_limits = run("2024-07-21T11:26:57+00:00", "200+2", "b.epd", 1, 1, 1);
    both_limits["args"]["new_tc"] = "20+0.2";
    scenario.fishtest.add("bb09", both_limits);
    scenario.start();

    auto result = scenario.download({"--ltc_only", "False", "--success_only", "True",
                                     "--yellow_only", "true", "--username", "vondele",
                                     "--standard_chess_only", "True", "--tc_lower_limit", "20",
                                     "--tc_upper_limit", "200", "--time_delta", "24"});
    INFO(result.output);
    CHECK(result.exit_code == 0);
    auto page = scenario.requests_for("/api/finished_runs").at(0);
    CHECK_FALSE(page.parameters.contains("ltc_only"));
    CHECK(page.parameters.at("success_only") == "1");
    CHECK(page.parameters.at("yellow_only") == "1");
    CHECK(page.parameters.at("username") == "vondele");
    auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch());
    CHECK(std::stod(page.parameters.at("timestamp")) ==
          Approx(now.count() - 24 * 3600).margin(120));

    for (auto id : {"bb06", "bb07", "bb08", "bb09"}) {
        CHECK(scenario.requests_for(std::string("/api/run_pgns/") + id + ".pgn.gz").size() == 1);
        CHECK(scenario.has_test("24-07-21", id));
    }
    for (auto id : {"bb01", "bb02", "bb03", "bb04", "bb05"}) {
        CHECK(scenario.requests_for(std::string("/api/run_pgns/") + id + ".pgn.gz").empty());
        CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-21" / id));
    }
    CHECK(result.output.find("skipped: 5 (SPSA test: 1, no games: 1, FRC book: 1, time control "
                             "outside the limits: 2)") != std::string::npos);
}

TEST_CASE("without selection options FRC and any time control are downloaded") {
    Scenario scenario("no-filters");
    scenario.fishtest.add("cc01",
                          run("2024-02-03T00:00:00+00:00", "10+0.1", "DFRC_openings.epd", 1, 1, 1));
    scenario.start();
    auto result = scenario.download();
    CHECK(result.exit_code == 0);
    CHECK(scenario.has_test("24-02-03", "cc01"));
}

TEST_CASE("transient server errors are retried") {
    Scenario scenario("retry");
    scenario.fishtest.add("dd01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.scripted["/api/finished_runs"] = {Response{500, "oops", {}, {}}};
    scenario.fishtest.scripted["/api/run_pgns/dd01.pgn.gz"] = {Response{500, "oops", {}, {}},
                                                               Response{429, "slow", {}, {}}};
    scenario.start();
    auto result = scenario.download();
    INFO(result.output);
    CHECK(result.exit_code == 0);
    CHECK(scenario.requests_for("/api/run_pgns/dd01.pgn.gz").size() == 3);
    CHECK(scenario.has_test("24-07-21", "dd01"));
    CHECK(read_file(scenario.pgns() / "24-07-21/dd01/dd01.pgn.gz") ==
          scenario.fishtest.game_files["dd01"]);
}

TEST_CASE("option --retries N makes N retries after the first attempt") {
    Scenario scenario("retry-count");
    scenario.fishtest.add("hh01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.add("hh02", run("2024-07-22T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    Response busy{503, "busy", {}, {}};
    scenario.fishtest.scripted["/api/run_pgns/hh01.pgn.gz"] = {busy, busy, busy};
    scenario.fishtest.scripted["/api/run_pgns/hh02.pgn.gz"] = {busy, busy};
    scenario.start();
    auto result = scenario.download({"--retries", "2"});
    INFO(result.output);
    CHECK(result.exit_code == 1);
    CHECK(scenario.requests_for("/api/run_pgns/hh01.pgn.gz").size() == 3);
    CHECK(contains(result.output, "(gave up after 3 attempts)"));
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-21/hh01/hh01.pgn.gz"));
    CHECK(scenario.requests_for("/api/run_pgns/hh02.pgn.gz").size() == 3);
    CHECK(scenario.has_test("24-07-22", "hh02"));
}

TEST_CASE("retry waits double from the first one up to the cap") {
    LocalHttpServer server([](const Request&) { return Response{503, "busy", {}, {}}; });
    using std::chrono::milliseconds;
    HttpOptions options;
    CHECK(options.max_retry_delay == std::chrono::seconds(60));
    options.max_retries = 4;
    options.first_retry_delay = milliseconds(10);
    options.max_retry_delay = milliseconds(25);
    options.pause_between_requests = milliseconds(0);
    HttpClient client(options);
    std::vector<std::optional<milliseconds>> waits;
    client.set_attempt_observer([&](const AttemptReport& report) {
        waits.push_back(report.retry_in);
        CHECK(report.status == 503);
    });
    CHECK_THROWS_AS(client.get(server.url() + "/busy"), HttpError);
    CHECK(server.requests().size() == 5);
    CHECK(waits == std::vector<std::optional<milliseconds>>{milliseconds(10), milliseconds(20),
                                                            milliseconds(25), milliseconds(25),
                                                            std::nullopt});
}

TEST_CASE("with -vv each request is logged with its status, size and retries") {
    Scenario scenario("very-verbose");
    scenario.fishtest.add("gg01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.scripted["/api/run_pgns/gg01.pgn.gz"] = {Response{500, "oops", {}, {}}};
    scenario.start();
    auto result = scenario.download({"-vv"});
    INFO(result.output);
    CHECK(result.exit_code == 0);
    auto game_url = scenario.server->url() + "/api/run_pgns/gg01.pgn.gz";
    CHECK(contains(result.output, "\n  GET " + game_url +
                                      " (attempt 1): HTTP 500, 4 bytes, failed: HTTP status 500;"
                                      " retry in 0.01 s\n"));
    CHECK(contains(result.output, "\n  GET " + game_url + " (attempt 2): HTTP 200, " +
                                      std::to_string(scenario.fishtest.game_files["gg01"].size()) +
                                      " bytes\n"));
    CHECK(contains(result.output,
                   "\n  GET " + scenario.server->url() + "/api/finished_runs?page=1&timestamp="));

    fs::remove_all(scenario.pgns());
    auto verbose = scenario.download({"-v"});
    INFO(verbose.output);
    CHECK(verbose.exit_code == 0);
    CHECK(scenario.has_test("24-07-21", "gg01"));
    CHECK_FALSE(contains(verbose.output, "GET "));
}

TEST_CASE("a truncated body is never kept but a full body is once retried") {
    Scenario scenario("truncated");
    scenario.fishtest.add("ee01", run("2024-07-20T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    scenario.fishtest.add("ee02", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    Response cut{200, "", 500, {}};
    scenario.fishtest.scripted["/api/run_pgns/ee01.pgn.gz"] = {cut, cut, cut};
    scenario.fishtest.scripted["/api/run_pgns/ee02.pgn.gz"] = {cut};
    scenario.start();
    auto result = scenario.download({"--retries", "2"});
    INFO(result.output);
    CHECK(result.exit_code == 1);
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-20"));  // no empty folders left
    CHECK(result.output.find("Error: test ee01") != std::string::npos);
    CHECK(scenario.has_test("24-07-21", "ee02"));
    CHECK(scenario.stray_files().empty());

    // The server has recovered: the rerun fetches exactly the missing run.
    scenario.server->clear_requests();
    auto rerun = scenario.download();
    CHECK(rerun.exit_code == 0);
    CHECK(scenario.has_test("24-07-20", "ee01"));
    CHECK(scenario.requests_for("/api/run_pgns/ee02.pgn.gz").empty());
}

TEST_CASE("a game file cut short without a Content-Length or not gzip at all is never kept") {
    Scenario scenario("bad-game-files");
    scenario.fishtest.add("fa01", run("2024-07-01T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    scenario.fishtest.add("fa02", run("2024-07-02T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.add("fa03", run("2024-07-03T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    scenario.fishtest.add("fa04", run("2024-07-04T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    Response cut{200, "", 500, {}};
    cut.close_delimited = true;
    Response error_page{200, "<html><body>Internal error</body></html>", {}, {}};
    // fa01 and fa02 stay bad through every attempt; fa03 and fa04 are good on the retry.
    scenario.fishtest.scripted["/api/run_pgns/fa01.pgn.gz"] = {cut, cut};
    scenario.fishtest.scripted["/api/run_pgns/fa02.pgn.gz"] = {error_page, error_page};
    scenario.fishtest.scripted["/api/run_pgns/fa03.pgn.gz"] = {cut};
    scenario.fishtest.scripted["/api/run_pgns/fa04.pgn.gz"] = {error_page};
    scenario.start();
    auto result = scenario.download({"--retries", "1"});
    INFO(result.output);
    CHECK(result.exit_code == 1);
    for (auto id : {"fa01", "fa02", "fa03", "fa04"})
        CHECK(scenario.requests_for(std::string("/api/run_pgns/") + id + ".pgn.gz").size() == 2);
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-01"));
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-02"));
    std::istringstream lines(result.output);
    std::map<std::string, std::string> errors;  // test id -> its error line
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("Error: test ")) errors[line.substr(12, 4)] = line;
    CHECK(errors.size() == 2);
    CHECK(contains(errors["fa01"], "truncated gzip member"));
    CHECK(contains(errors["fa02"], "not a gzip file"));
    CHECK(contains(result.output, "downloaded: 2 ("));
    CHECK(contains(result.output, "failed: 2."));
    for (auto [date, id] : {std::pair{"24-07-03", "fa03"}, std::pair{"24-07-04", "fa04"}}) {
        CHECK(scenario.has_test(date, id));
        CHECK(read_file(scenario.pgns() / date / id / (std::string(id) + ".pgn.gz")) ==
              scenario.fishtest.game_files[id]);
    }
    CHECK(scenario.stray_files().empty());

    // The server has recovered: the rerun fetches exactly the two failed tests.
    scenario.server->clear_requests();
    auto rerun = scenario.download();
    INFO(rerun.output);
    CHECK(rerun.exit_code == 0);
    CHECK(contains(rerun.output, "already present: 2, downloaded: 2"));
    CHECK(scenario.has_test("24-07-01", "fa01"));
    CHECK(scenario.has_test("24-07-02", "fa02"));
    CHECK(read_file(scenario.pgns() / "24-07-01/fa01/fa01.pgn.gz") ==
          scenario.fishtest.game_files["fa01"]);
}

TEST_CASE("a stalled transfer times out and the other runs still come") {
    Scenario scenario("stall-timeout");
    scenario.fishtest.add("ff01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    scenario.fishtest.add("ff02", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.scripted["/api/run_pgns/ff01.pgn.gz"] = {Response{200, "", {}, 1000}};
    scenario.start();
    auto result = scenario.download({"--timeout", "1", "--retries", "0"});
    INFO(result.output);
    CHECK(result.exit_code == 1);
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-21/ff01/ff01.pgn.gz"));
    CHECK(scenario.has_test("24-07-21", "ff02"));
    CHECK(scenario.stray_files().empty());
}

TEST_CASE("a stalled transfer is retried and the retry's complete file kept") {
    Scenario scenario("stall-retry");
    scenario.fishtest.add("fb01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    scenario.fishtest.scripted["/api/run_pgns/fb01.pgn.gz"] = {Response{200, "", {}, 1000}};
    scenario.start();
    auto result = scenario.download({"--timeout", "1", "--retries", "1"});
    INFO(result.output);
    CHECK(result.exit_code == 0);
    CHECK(scenario.requests_for("/api/run_pgns/fb01.pgn.gz").size() == 2);
    CHECK(scenario.has_test("24-07-21", "fb01"));
    CHECK(read_file(scenario.pgns() / "24-07-21/fb01/fb01.pgn.gz") ==
          scenario.fishtest.game_files["fb01"]);
    CHECK(scenario.stray_files().empty());
}

TEST_CASE("a run killed mid-download leaves no partial file and a rerun completes") {
    Scenario scenario("killed");
    scenario.fishtest.add("ab01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1), 40);
    scenario.fishtest.add("ab02", run("2024-07-22T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.scripted["/api/run_pgns/ab01.pgn.gz"] = {Response{200, "", {}, 3000}};
    scenario.start();
    {
        ChildProcess child(scenario.command({}), scenario.folder / "killed.txt");
        REQUIRE(scenario.server->wait_for_stall(std::chrono::seconds(20)));
        child.kill_now();
    }
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-21/ab01/ab01.pgn.gz"));
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-21/ab01/ab01.json"));
    CHECK(scenario.stray_files().size() == 1);  // the killed process's temporary
    // One killed while writing the metadata would have left this.
    std::ofstream(scenario.pgns() / "24-07-21/ab01/ab01.json.tmp.99999.0") << "{";

    auto rerun = scenario.download();
    INFO(rerun.output);
    CHECK(rerun.exit_code == 0);
    CHECK(scenario.has_test("24-07-21", "ab01"));
    CHECK(scenario.has_test("24-07-22", "ab02"));
    CHECK(read_file(scenario.pgns() / "24-07-21/ab01/ab01.pgn.gz") ==
          scenario.fishtest.game_files["ab01"]);
    CHECK(scenario.stray_files().empty());
}

TEST_CASE("bad pages and bad runs are reported and skipped") {
    Scenario scenario("bad-input");
    scenario.fishtest.add("ba01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.add("ba02", json{{"start_time", "soon"}, {"results", {{"wins", 1}}}});
    scenario.fishtest.add("../escape",
                          run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.add("ba03", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.page_size = 1;
    scenario.fishtest.scripted["/api/finished_runs"] = {Response{200, "<html>", {}, {}}};
    scenario.start();
    auto result = scenario.download({"--retries", "0"});
    INFO(result.output);
    CHECK(result.exit_code == 1);
    // Page 1 was garbage; pages 2-4 carried ba02, ../escape and ba03.
    CHECK_FALSE(fs::exists(scenario.pgns() / "24-07-21/ba01"));
    CHECK(scenario.has_test("24-07-21", "ba03"));
    CHECK_FALSE(fs::exists(scenario.folder / "escape"));
    CHECK(result.output.find("Error: skipping page 1") != std::string::npos);
    CHECK(result.output.find("failed: 2.") != std::string::npos);
}

TEST_CASE("a game file whose metadata is missing gets it on the next run") {
    Scenario scenario("complete-metadata");
    scenario.fishtest.add("ca01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.start();
    REQUIRE(scenario.download().exit_code == 0);
    fs::remove(scenario.pgns() / "24-07-21/ca01/ca01.json");
    std::ofstream(scenario.pgns() / "24-07-21/ca01/ca01.json.tmp.99999.0") << "{";
    auto rerun = scenario.download();
    CHECK(rerun.exit_code == 0);
    CHECK(scenario.has_test("24-07-21", "ca01"));
    CHECK(scenario.requests_for("/api/run_pgns/ca01.pgn.gz").size() == 1);
    CHECK(scenario.stray_files().empty());
}

TEST_CASE("download_missing_metadata fetches get_run for game files without JSON") {
    Scenario scenario("missing-metadata");
    scenario.fishtest.add("da01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.add("da02", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.fishtest.scripted["/api/get_run/da01"] = {Response{503, "busy", {}, {}}};
    scenario.start();
    fs::create_directories(scenario.pgns() / "24-07-21/da01");
    fs::create_directories(scenario.pgns() / "24-07-21/da02");
    std::ofstream(scenario.pgns() / "24-07-21/da01/da01-1.pgn.gz") << "x";
    std::ofstream(scenario.pgns() / "24-07-21/da02/da02.pgn.gz") << "x";
    std::ofstream(scenario.pgns() / "24-07-21/da02/da02.json") << "{}";
    auto command = std::vector<std::string>{
        metadata_downloader, "--server", scenario.server->url(), "--path", scenario.pgns().string(),
        "--pause",           "0",        "--retry_delay",        "0.01"};
    auto result = run_to_end(command, scenario.folder / "output.txt");
    INFO(result.output);
    CHECK(result.exit_code == 0);
    CHECK(read_file(scenario.pgns() / "24-07-21/da01/da01.json") ==
          wdl::fishtest::format_metadata(scenario.fishtest.runs[0].second));
    CHECK(read_file(scenario.pgns() / "24-07-21/da02/da02.json") == "{}");
    CHECK(scenario.requests_for("/api/get_run/da02").empty());

    command.push_back("--overwrite");
    REQUIRE(run_to_end(command, scenario.folder / "output.txt").exit_code == 0);
    CHECK(read_file(scenario.pgns() / "24-07-21/da02/da02.json") ==
          wdl::fishtest::format_metadata(scenario.fishtest.runs[1].second));
}

TEST_CASE("download_missing_metadata completes every folder holding games of a test") {
    Scenario scenario("missing-metadata-folders");
    scenario.fishtest.add("db01", run("2024-07-21T11:26:57+00:00", "60+0.6", "b.epd", 1, 1, 1));
    scenario.start();
    // The test's games in three folders, the first one complete.
    for (auto date : {"24-07-21", "24-07-22", "24-07-23"})
        fs::create_directories(scenario.pgns() / date / "db01");
    std::ofstream(scenario.pgns() / "24-07-21/db01/db01.pgn.gz") << "x";
    std::ofstream(scenario.pgns() / "24-07-21/db01/db01.json") << "{}";
    std::ofstream(scenario.pgns() / "24-07-22/db01/db01-1.pgn.gz") << "x";
    std::ofstream(scenario.pgns() / "24-07-23/db01/db01-2.pgn.gz") << "x";
    auto result = run_to_end({metadata_downloader, "--server", scenario.server->url(), "--path",
                              scenario.pgns().string(), "--pause", "0"},
                             scenario.folder / "output.txt");
    INFO(result.output);
    CHECK(result.exit_code == 0);
    CHECK(read_file(scenario.pgns() / "24-07-21/db01/db01.json") == "{}");
    for (auto date : {"24-07-22", "24-07-23"})
        CHECK(read_file(scenario.pgns() / date / "db01/db01.json") ==
              wdl::fishtest::format_metadata(scenario.fishtest.runs[0].second));
    CHECK(scenario.requests_for("/api/get_run/db01").size() == 1);
    CHECK(contains(result.output, "Metadata: 1 present, 2 downloaded, 0 failed."));
}
