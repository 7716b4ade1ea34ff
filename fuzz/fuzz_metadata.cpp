// fishtest's run metadata and the finished-runs pages, as the scanner and the downloader read
// them from disk and from the server; and the Hugging Face Hub's answers: tree listing pages and
// the headers that steer the download (Link, Retry-After, RateLimit, Location).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "wdl/download/finished_runs.hpp"
#include "wdl/download/http_headers.hpp"
#include "wdl/download/hub_archive.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_discarded()) {
        auto metadata = wdl::fishtest::parse_run_metadata(json);
        (void)metadata.games();
        (void)wdl::fishtest::time_controls(metadata);
    }
    try {
        for (const auto& run : wdl::download::parse_finished_runs_page(text))
            (void)wdl::fishtest::format_metadata(run.json).size();
    } catch (const wdl::Error&) {
        // A page that is no JSON object of runs, or nests too deep: expected.
    }
    try {
        for (const auto& file : wdl::download::parse_tree_page(text).files)
            (void)wdl::download::is_date_folder_name(file.path);
    } catch (const wdl::Error&) {
        // A listing that is no JSON array: expected.
    }
    (void)wdl::download::next_page_link(text);
    wdl::download::ResponseHead head;
    head.headers = {{"retry-after", text}, {"ratelimit", text}};
    (void)wdl::download::requested_wait(head);
    (void)wdl::download::url_origin(text);
    (void)wdl::download::resolve_location(text, text);
    (void)wdl::download::resolve_location("https://huggingface.co/datasets/r/resolve/c/p", text);
    return 0;
}
