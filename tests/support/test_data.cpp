#include "test_data.hpp"

#include <fstream>
#include <stdexcept>

#include "program_runner.hpp"
#include "wdl/io/block_reader.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::testing {
namespace {

std::filesystem::path existing(const std::filesystem::path& path) {
    if (!std::filesystem::exists(path))
        throw std::runtime_error("test data file " + path.string() +
                                 " is missing: the tests read it from the repository");
    return path;
}

}  // namespace

std::filesystem::path source_directory() { return WDL_SOURCE_DIR; }

std::filesystem::path test_data_path(const std::string& relative) {
    return existing(std::filesystem::path(WDL_SOURCE_DIR) / "tests" / "data" / relative);
}

std::filesystem::path corpus_path(const std::string& relative) {
    return existing(std::filesystem::path(WDL_SOURCE_DIR) / "data" / relative);
}

std::string read_decompressed(const std::filesystem::path& path) {
    auto reader = io::BlockReader::open(path);
    std::string text;
    while (reader->read_block(text) > 0) {
    }
    if (!reader->damage().empty())
        throw std::runtime_error(path.string() + " is damaged: " + reader->damage());
    return text;
}

std::filesystem::path unpacked_test_data(const std::string& relative) {
    auto target = std::filesystem::path(WDL_BINARY_DIR) / "unpacked_test_data" / relative;
    if (!std::filesystem::exists(target)) {
        std::filesystem::create_directories(target.parent_path());
        // Atomic, since test processes running in parallel may unpack the same file.
        util::write_file_atomically(target, read_decompressed(test_data_path(relative + ".gz")));
    }
    return target;
}

nlohmann::json read_count_json(const std::filesystem::path& path) {
    auto counts = nlohmann::json::parse(read_decompressed(existing(path)));
    return counts.is_null() ? nlohmann::json::object() : counts;
}

nlohmann::json grouped_file_header(const std::filesystem::path& path) {
    std::ifstream file(existing(path));
    std::string line;
    std::getline(file, line);
    return nlohmann::json::parse(line);
}

nlohmann::json reference_scan_counts(const std::string& name) {
    return read_count_json(test_data_path("reference/scan/" + name + ".json.gz"));
}

}  // namespace wdl::testing
