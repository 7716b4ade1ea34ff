// fishtest's run metadata and the finished-runs pages, as the scanner and the downloader read
// them from disk and from the server.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "wdl/download/finished_runs.hpp"
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
    return 0;
}
