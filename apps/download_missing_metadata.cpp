// Downloads fishtest metadata (<test-id>.json) for every test whose game files are present
// but whose metadata is not.
#include <CLI/CLI.hpp>
#include <iostream>

#include "wdl/fishtest/missing_metadata.hpp"

int main(int argc, char** argv) {
    using namespace wdl::fishtest;
    CLI::App app{"Download fishtest metadata for any test that .pgn(.gz) files can be found for."};
    app.option_defaults()->always_capture_default();

    MissingMetadataSettings settings;
    HttpOptions http;
    std::string root = settings.root.string();
    double pause_seconds = 0.1, retry_delay_seconds = 5.0;
    long stall_seconds = 30;

    app.add_option("--path", root, "Recursively look for .pgn(.gz) files in this directory.");
    app.add_flag("-o,--overwrite", settings.overwrite,
                 "Overwrite existing metadata (use with care!).");
    app.add_option("--server", settings.server, "Base URL of the fishtest server.");
    app.add_option("--pause", pause_seconds, "Seconds to wait between two requests to the server.")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--retries", http.max_retries,
                   "Retries of a request after a transient failure (0: try once only).")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--retry_delay", retry_delay_seconds,
                   "Seconds before the first retry; each further retry waits twice as long, "
                   "up to 60 s.")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--timeout", stall_seconds,
                   "Abandon (and retry) a transfer that receives nothing for this many seconds.")
        ->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);

    if (!std::filesystem::is_directory(root)) {
        std::cerr << "Error: directory " << root << " not found.\n";
        return 1;
    }
    settings.root = root;
    http.pause_between_requests = std::chrono::milliseconds(long(pause_seconds * 1000));
    http.first_retry_delay = std::chrono::milliseconds(long(retry_delay_seconds * 1000));
    http.stall_timeout = std::chrono::seconds(stall_seconds);

    try {
        HttpClient client(http);
        auto summary = download_missing_metadata(settings, client, std::cout);
        return summary.failed == 0 ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << "Error: " << error.what() << "\n";
        return 1;
    }
}
