#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>

#include "wdl/download/finished_runs.hpp"
#include "wdl/download/http_client.hpp"
#include "wdl/fishtest/run_metadata.hpp"

namespace wdl::download {

struct DownloadSettings {
    std::string server = "https://tests.stockfishchess.org";
    std::filesystem::path root = "./pgns";
    FinishedRunsQuery query;
    fishtest::SelectionRules rules;
    int verbosity = 0;           // 1: details of each test; 2: also each HTTP request
    bool show_progress = false;  // a live progress line on stderr (for terminals)
};

struct DownloadSummary {
    int tests_seen = 0;
    int already_present = 0;
    int downloaded = 0;
    int failed = 0;
    int bad_pages = 0;
    std::map<fishtest::RunSkipReason, int> skipped;
    std::uint64_t bytes = 0;
};

// Pages through the finished runs and downloads the games and metadata of every selected run
// that is not yet under settings.root. Failures of single pages or runs are reported on `out`
// and counted, never fatal, so that a rerun fetches exactly what is still missing.
DownloadSummary download_finished_runs(const DownloadSettings& settings, HttpClient& client,
                                       std::ostream& out);

void print_summary(const DownloadSummary& summary, std::ostream& out);

// "12.3 MB": an amount of bytes in decimal units, as the downloads' lines print it.
std::string format_bytes(double bytes);
// The summary print_summary prints, as JSON.
nlohmann::json summary_json(const DownloadSummary& summary);

}  // namespace wdl::download
