// Downloads fishtest metadata (<test-id>.json) for every test whose game files are present
// but whose metadata is not.
#include <CLI/CLI.hpp>
#include <iostream>

#include "http_command_line.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "wdl/download/missing_metadata.hpp"
#include "wdl/util/error.hpp"

int wdl::programs::download_missing_metadata(int argc, char** argv) {
    using namespace wdl::download;
    CLI::App app{"Download fishtest metadata for any test that .pgn(.gz) files can be found for.",
                 "download_missing_metadata"};
    app.option_defaults()->always_capture_default();

    MissingMetadataSettings settings;
    std::string root = settings.root.string();

    app.add_option("--path", root, "Recursively look for .pgn(.gz) files in this directory.");
    app.add_flag("-o,--overwrite", settings.overwrite,
                 "Overwrite existing metadata (use with care!).");
    app.add_option("--server", settings.server, "Base URL of the fishtest server.");
    HttpCommandLine http(app, 5.0, 30);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;

    settings.root = root;
    return wdl::util::report_errors([&] {
        if (!std::filesystem::is_directory(root))
            throw wdl::Error("directory " + root + " not found.");
        HttpClient client(http.options());
        auto summary = download_missing_metadata(settings, client, std::cout);
        return summary.failed == 0 ? 0 : 1;
    });
}
