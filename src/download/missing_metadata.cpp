#include "wdl/download/missing_metadata.hpp"

#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "wdl/download/finished_runs.hpp"
#include "wdl/fishtest/layout.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/util/error.hpp"

namespace wdl::download {

MissingMetadataSummary download_missing_metadata(const MissingMetadataSettings& settings,
                                                 HttpClient& client, std::ostream& out) {
    MissingMetadataSummary summary;
    auto tests = fishtest::find_test_folders(settings.root);
    summary.tests = int(tests.size());
    out << fmt::format("Found {} downloaded tests in {}.\n", tests.size(), settings.root.string());
    for (const auto& [id, folders] : tests) {
        // Every folder with games of the test needs its JSON; one request serves them all.
        std::vector<std::filesystem::path> wanted;
        for (const auto& folder : folders) {
            auto file = fishtest::metadata_path(folder, id);
            if (std::filesystem::exists(file) && !settings.overwrite) {
                ++summary.present;
                out << fmt::format("File {} exists already, skipping download.\n", file.string());
            } else {
                wanted.push_back(file);
            }
        }
        if (wanted.empty()) continue;
        auto report_failure = [&](const std::filesystem::path& file, const char* why) {
            ++summary.failed;
            out << fmt::format("  error: {} : {}\n", file.string(), why);
        };
        nlohmann::json metadata;
        try {
            metadata = parse_server_json(client.get(get_run_url(settings.server, id)));
            if (!metadata.is_object()) throw Error("the answer is not a JSON object");
        } catch (const std::exception& error) {
            for (const auto& file : wanted) report_failure(file, error.what());
            continue;
        }
        for (const auto& file : wanted) {
            try {
                fishtest::write_metadata(file, metadata);
                ++summary.downloaded;
                out << fmt::format("Downloaded {}.\n", file.string());
            } catch (const std::exception& error) {
                report_failure(file, error.what());
            }
        }
    }
    out << fmt::format("Metadata: {} present, {} downloaded, {} failed.\n", summary.present,
                       summary.downloaded, summary.failed);
    return summary;
}

}  // namespace wdl::download
