#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

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
        CHECK(fs::exists(file.written_path()));
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

TEST_CASE("an atomic file in a missing directory names the file asked for and the folder",
          "[util]") {
    CHECK_THROWS_WITH(wdl::util::AtomicFile("/nonexistent-dir/x.json"),
                      "cannot write /nonexistent-dir/x.json: the folder /nonexistent-dir does not "
                      "exist");
    // In a folder that is a file: the system's reason, still of the file asked for.
    fs::path file = wdl::testing::scratch_directory() / "wdl_atomic_not_a_folder";
    wdl::util::write_file_atomically(file, "");
    CHECK_THROWS_WITH(wdl::util::AtomicFile(file / "x.json"),
                      "cannot write " + (file / "x.json").string() + ": Not a directory");
    fs::remove(file);
}

TEST_CASE("an atomic file whose target is a pipe writes into it and leaves it a pipe", "[util]") {
    fs::path dir = wdl::testing::scratch_directory() / "wdl_atomic_fifo";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::path fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = read_all(fifo); });
    {
        wdl::util::AtomicFile file(fifo);
        CHECK(file.written_path() == fifo);
        file.write("through the pipe");
        file.commit();
    }
    reader.join();
    CHECK(received == "through the pipe");
    CHECK(fs::is_fifo(fifo));
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}
