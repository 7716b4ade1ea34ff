#include "wdl/util/whole_file.hpp"

#include <fstream>
#include <sstream>

namespace wdl::util {

std::optional<std::string> read_whole_file(const std::filesystem::path& path) {
    // A folder opens as a stream that reads as empty: it is no file to read.
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return std::move(bytes).str();
}

}  // namespace wdl::util
