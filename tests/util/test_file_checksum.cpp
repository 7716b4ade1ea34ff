#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "program_runner.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/file_checksum.hpp"

namespace fs = std::filesystem;

TEST_CASE("file_crc32 is the CRC-32 of the file's bytes", "[util]") {
    fs::path dir = wdl::testing::fresh_directory("file_crc32");
    // The check value of CRC-32 (the one of zlib, gzip and PNG) is that of "123456789".
    wdl::testing::write_text_file(dir / "digits", "123456789");
    CHECK(wdl::util::file_crc32(dir / "digits") == 0xCBF43926u);
    wdl::testing::write_text_file(dir / "empty", "");
    CHECK(wdl::util::file_crc32(dir / "empty") == 0u);
    // Larger than the read buffer: the checksum runs on over the reads.
    std::string big(3u << 20, 'x');
    big[123456] = 'y';
    wdl::testing::write_text_file(dir / "big", big);
    std::string changed = big;
    changed[2500000] = 'z';
    wdl::testing::write_text_file(dir / "changed", changed);
    CHECK(wdl::util::file_crc32(dir / "big") != wdl::util::file_crc32(dir / "changed"));
}

TEST_CASE("file_crc32 names a file it cannot read", "[util]") {
    fs::path missing = wdl::testing::fresh_directory("file_crc32_missing") / "nothing";
    CHECK_THROWS_WITH(wdl::util::file_crc32(missing), Catch::Matchers::Contains(missing.string()));
}
