#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "wdl/util/whole_file.hpp"

namespace fs = std::filesystem;

TEST_CASE("a whole file is read byte for byte, or nothing when it cannot be", "[util]") {
    auto folder = fs::temp_directory_path() / "wdl_test_whole_file";
    fs::create_directories(folder);
    std::string bytes("line\r\n\0binary\xff", 14);
    {
        std::ofstream out(folder / "bytes", std::ios::binary);
        out << bytes;
    }
    std::ofstream(folder / "empty").close();
    CHECK(wdl::util::read_whole_file(folder / "bytes") == bytes);
    CHECK(wdl::util::read_whole_file(folder / "empty") == std::string());
    CHECK_FALSE(wdl::util::read_whole_file(folder / "missing").has_value());
    CHECK_FALSE(wdl::util::read_whole_file(folder).has_value());
    fs::remove_all(folder);
}

TEST_CASE("why a file cannot be read is said in words", "[util]") {
    auto folder = fs::temp_directory_path() / "wdl_test_unreadable";
    fs::create_directories(folder);
    CHECK(wdl::util::unreadable_reason(folder / "missing") == "it does not exist");
    CHECK(wdl::util::unreadable_reason(folder) == "it is a folder");
    fs::remove_all(folder);
}
