#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <stdexcept>

#include "io_test_support.hpp"
#include "skip.hpp"
#include "wdl/io/block_reader.hpp"

namespace fs = std::filesystem;
using namespace wdl::io;
using namespace wdl::io::test;
using wdl::testing::skip_test;

namespace {

// The message must name the file and fit on one line.
void require_open_error_naming(const fs::path& path) {
    try {
        BlockReader::open(path);
        FAIL("no exception for " << path);
    } catch (const std::runtime_error& error) {
        std::string message = error.what();
        CHECK_THAT(message, Catch::Contains(path.string()));
        CHECK(message.find('\n') == std::string::npos);
    }
}

}  // namespace

TEST_CASE("opening a missing file throws a message naming it", "[io]") {
    auto directory = fresh_directory("missing");
    require_open_error_naming(directory / "absent.pgn");
    require_open_error_naming(directory / "absent.pgn.gz");
    require_open_error_naming(directory / "absent.pgn.zst");
}

TEST_CASE("opening a directory throws a message naming it", "[io]") {
    auto directory = fresh_directory("directory");
    fs::create_directories(directory / "games.pgn.gz");
    require_open_error_naming(directory / "games.pgn.gz");
    require_open_error_naming(directory);
}

TEST_CASE("opening an unreadable file throws a message naming it", "[io]") {
    auto directory = fresh_directory("unreadable");
    auto path = directory / "secret.pgn";
    write_text_file(path, "1. e4");
    fs::permissions(path, fs::perms::none);
    // root (CI runs as root) reads files regardless of their permissions: nothing to test.
    if (::access(path.c_str(), R_OK) == 0) {
        skip_test("a mode-000 file is readable here (running as root?)");
        return;
    }
    require_open_error_naming(path);
}
