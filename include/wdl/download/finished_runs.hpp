#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "wdl/fishtest/run_metadata.hpp"

namespace wdl::download {

// Server-side filters of fishtest's /api/finished_runs.
struct FinishedRunsQuery {
    double since_unix_time = 0;  // runs last updated after this
    bool ltc_only = true;
    bool success_only = false;
    bool yellow_only = false;
    std::string username;  // empty: everybody's
};

std::string finished_runs_url(const std::string& server, int page, const FinishedRunsQuery& query);
std::string run_pgns_url(const std::string& server, const std::string& id);
std::string get_run_url(const std::string& server, const std::string& id);

struct FinishedRun {
    std::string id;
    nlohmann::json json;             // as the server sent it, written to <id>.json
    fishtest::RunMetadata metadata;  // the fields read from it
};

// Fishtest's answers nest a few levels; a deeper one is refused before parsing, since writing
// it back as metadata (indented, recursively) would cost memory and stack without bound.
inline constexpr int kMaxServerJsonDepth = 32;

// The server's JSON answer, checked against kMaxServerJsonDepth. Throws wdl::Error for a body
// that is too deep or not valid JSON.
nlohmann::json parse_server_json(const std::string& body);

// The runs of one page (an object mapping test ids to run metadata); an empty result marks
// the end. Throws wdl::Error if the body is not such an object.
std::vector<FinishedRun> parse_finished_runs_page(const std::string& body);

// Percent-encodes everything but RFC 3986's unreserved characters.
std::string percent_encode(const std::string& value);

}  // namespace wdl::download
