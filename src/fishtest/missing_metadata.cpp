#include "wdl/fishtest/missing_metadata.hpp"

#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "wdl/fishtest/finished_runs.hpp"
#include "wdl/fishtest/local_layout.hpp"

namespace wdl::fishtest {

MissingMetadataSummary download_missing_metadata(const MissingMetadataSettings& settings,
                                                 HttpClient& client, std::ostream& out) {
    MissingMetadataSummary summary;
    auto tests = find_downloaded_tests(settings.root);
    summary.tests = int(tests.size());
    out << fmt::format("Found {} downloaded tests in {}.\n", tests.size(), settings.root.string());
    for (const auto& [id, folder] : tests) {
        auto file = metadata_path(folder, id);
        if (std::filesystem::exists(file) && !settings.overwrite) {
            ++summary.present;
            out << fmt::format("File {} exists already, skipping download.\n", file.string());
            continue;
        }
        try {
            auto metadata = nlohmann::json::parse(client.get(get_run_url(settings.server, id)));
            if (!metadata.is_object()) throw std::runtime_error("the answer is not a JSON object");
            write_metadata(file, metadata);
            ++summary.downloaded;
            out << fmt::format("Downloaded {}.\n", file.string());
        } catch (const std::exception& error) {
            ++summary.failed;
            out << fmt::format("  error: {} : {}\n", file.string(), error.what());
        }
    }
    out << fmt::format("Metadata: {} present, {} downloaded, {} failed.\n", summary.present,
                       summary.downloaded, summary.failed);
    return summary;
}

}  // namespace wdl::fishtest
