// archiveWDL as users run it, against a local stand-in of the Hugging Face Hub that serves the
// bundled corpus (scripts/hub_bench_server.py on 127.0.0.1, HF_ENDPOINT pointing at it): the
// refit's counts equal scoreWDLstat's scan of the corpus, and a run killed in the middle
// resumes and gives the same counts.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "program_runner.hpp"
#include "skip.hpp"
#include "test_data.hpp"

using namespace wdl::testing;
namespace fs = std::filesystem;

namespace {

// Debian's python3 (the child is started by execv, without a search of PATH).
const std::string kPython = "/usr/bin/python3";

// The stand-in Hub, serving `root` at `rate` bytes a second, for as long as it lives.
class LocalHub {
  public:
    LocalHub(const fs::path& dir, long rate)
        : server_({kPython, (source_directory() / "scripts" / "hub_bench_server.py").string(),
                   corpus_path().string(), "--port", "0", "--rate", std::to_string(rate)},
                  dir / "hub.txt") {
        for (int i = 0; i < 100 && port_.empty(); ++i) {
            port_ = line_starting(server_.output(), "port ");
            if (port_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        REQUIRE(!port_.empty());
        endpoint_ = "http://127.0.0.1:" + port_.substr(5);
        ::setenv("HF_ENDPOINT", endpoint_.c_str(), 1);
        ::setenv("HF_TOKEN", "", 1);
    }
    ~LocalHub() { ::unsetenv("HF_ENDPOINT"); }

  private:
    ChildProcess server_;
    std::string port_, endpoint_;
};

bool has_python() { return fs::exists(kPython); }

std::vector<std::string> refit_arguments(const fs::path& work) {
    // All six tests (three are not LTC), four batches of about 200 kB, one transfer at once.
    return {"--dates",
            "2*",
            "--ltc_only",
            "False",
            "--work",
            work.string(),
            "--batch_size",
            "0.0002",
            "--jobs",
            "1",
            "--pause",
            "0",
            "--concurrency",
            "1",
            "--scan_only",
            "--json",
            (work / "summary.json").string()};
}

std::string whole_scan(const fs::path& dir) {
    auto run = run_program("scoreWDLstat", {"--dir", corpus_path().string(), "-r", "--groups", "64",
                                            "-o", (dir / "whole.json").string()});
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    return read_text_file(dir / "whole.json");
}

}  // namespace

TEST_CASE("archiveWDL refits from a local Hub as scoreWDLstat scans the same tests",
          "[apps][archive]") {
    if (!has_python()) skip_test("python3 is not installed: no local Hub");
    auto dir = fresh_directory("archiveWDL_hub");
    LocalHub hub(dir, 0);
    auto run = run_program("archiveWDL", refit_arguments(dir / "work"));
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(read_text_file(dir / "work" / "archive_counts.json") == whole_scan(dir));
    auto summary = nlohmann::json::parse(read_text_file(dir / "work" / "summary.json"));
    CHECK(summary["batches"] == 4);
    CHECK(summary["filesScanned"] == 9);
    CHECK(summary["commit"].get<std::string>().size() == 40);
    CHECK_THAT(run.output, Catch::Contains("Batch 4 of 4 done"));
}

TEST_CASE("archiveWDL killed in the middle resumes and counts every file once", "[apps][archive]") {
    if (!has_python()) skip_test("python3 is not installed: no local Hub");
    auto dir = fresh_directory("archiveWDL_killed");
    auto work = dir / "work";
    {
        // 200 kB/s: the 630 kB of games take about three seconds, killed after the first shard.
        LocalHub slow(dir, 200'000);
        std::vector<std::string> command = {program_path("archiveWDL").string()};
        auto arguments = refit_arguments(work);
        command.insert(command.end(), arguments.begin(), arguments.end());
        ChildProcess refit(command, dir / "killed.txt");
        for (int i = 0; i < 200 && !fs::exists(work / "shards.json"); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        refit.kill_now();
        INFO(refit.output());
        REQUIRE(fs::exists(work / "shards.json"));
    }
    LocalHub hub(dir, 0);
    auto run = run_program("archiveWDL", refit_arguments(work));
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    auto summary = nlohmann::json::parse(read_text_file(work / "summary.json"));
    CHECK(summary["batchesBefore"].get<int>() >= 1);
    CHECK(summary["batchesBefore"].get<int>() < 4);
    CHECK(read_text_file(work / "archive_counts.json") == whole_scan(dir));
}
