#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "program_runner.hpp"
#include "wdl/util/atomic_file.hpp"

namespace fs = std::filesystem;

namespace {
std::string read_all(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}
}  // namespace

TEST_CASE("an atomic file appears only when committed", "[util]") {
    fs::path dir = wdl::testing::scratch_directory() / "wdl_atomic_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::path target = dir / "out.json";
    {
        wdl::util::AtomicFile file(target);
        file.write("{}");
        CHECK_FALSE(fs::exists(target));
        CHECK(fs::exists(file.temporary_path()));
        file.commit();
    }
    CHECK(read_all(target) == "{}");
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("an abandoned atomic file leaves the old content and no temporary", "[util]") {
    fs::path dir = wdl::testing::scratch_directory() / "wdl_atomic_test2";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::path target = dir / "out.json";
    wdl::util::write_file_atomically(target, "old");
    {
        wdl::util::AtomicFile file(target);
        file.write("partial");
    }
    CHECK(read_all(target) == "old");
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("an atomic file in a missing directory reports the path", "[util]") {
    CHECK_THROWS_WITH(wdl::util::AtomicFile("/nonexistent-dir/x.json"),
                      Catch::Contains("/nonexistent-dir/x.json"));
}
