#include "wdl/download/finished_runs.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "wdl/download/http_headers.hpp"
#include "wdl/util/error.hpp"

namespace wdl::download {
std::string finished_runs_url(const std::string& server, int page, const FinishedRunsQuery& query) {
    // fmt's "{}" prints the shortest exact form of a double, as Python's str() does.
    auto url = fmt::format("{}/api/finished_runs?page={}&timestamp={}",
                           without_trailing_slash(server), page, query.since_unix_time);
    if (query.ltc_only) url += "&ltc_only=1";
    if (query.success_only) url += "&success_only=1";
    if (query.yellow_only) url += "&yellow_only=1";
    if (!query.username.empty()) url += "&username=" + percent_encode(query.username);
    return url;
}

std::string run_pgns_url(const std::string& server, const std::string& id) {
    return without_trailing_slash(server) + "/api/run_pgns/" + percent_encode(id) + ".pgn.gz";
}

std::string get_run_url(const std::string& server, const std::string& id) {
    return without_trailing_slash(server) + "/api/get_run/" + percent_encode(id);
}

namespace {

// The deepest nesting of arrays and objects in a JSON text (brackets inside strings aside).
int json_depth(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

}  // namespace

nlohmann::json parse_server_json(const std::string& body) {
    if (json_depth(body) > kMaxServerJsonDepth) {
        throw Error(fmt::format("the answer nests deeper than {} levels; fishtest's do not",
                                kMaxServerJsonDepth));
    }
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded()) throw Error("the answer is not valid JSON");
    return json;
}

std::vector<FinishedRun> parse_finished_runs_page(const std::string& body) {
    auto page = parse_server_json(body);
    // An exhausted pager may answer null or [] instead of {}.
    if (page.is_null() || (page.is_array() && page.empty())) return {};
    if (!page.is_object()) throw Error("the page is not a JSON object of runs");
    std::vector<FinishedRun> runs;
    for (auto& [id, run] : page.items()) {
        auto metadata = fishtest::parse_run_metadata(run);
        runs.push_back({id, std::move(run), std::move(metadata)});
    }
    return runs;
}

std::string percent_encode(const std::string& value) {
    std::string encoded;
    for (unsigned char c : value) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
            encoded += char(c);
        else
            encoded += fmt::format("%{:02X}", c);
    }
    return encoded;
}

}  // namespace wdl::download
