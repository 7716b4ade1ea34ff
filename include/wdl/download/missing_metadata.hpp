#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include "wdl/download/http_client.hpp"

namespace wdl::download {

struct MissingMetadataSettings {
    std::string server = "https://tests.stockfishchess.org";
    std::filesystem::path root = "./pgns";
    bool overwrite = false;  // also refetch metadata files that exist
};

struct MissingMetadataSummary {
    int tests = 0;
    int present = 0;
    int downloaded = 0;
    int failed = 0;
};

// Fetches /api/get_run/<id> for every test with game files under settings.root whose
// <id>.json is missing (or every one, with overwrite), once per test, and writes it into every
// folder holding games of the test. Failures are reported and counted per file.
MissingMetadataSummary download_missing_metadata(const MissingMetadataSettings& settings,
                                                 HttpClient& client, std::ostream& out);

}  // namespace wdl::download
