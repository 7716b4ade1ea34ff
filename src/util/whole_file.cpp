#include "wdl/util/whole_file.hpp"

#include <cerrno>
#include <cstring>
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

std::string unreadable_reason(const std::filesystem::path& path) {
    std::error_code error;
    auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status)) return "it does not exist";
    if (std::filesystem::is_directory(status)) return "it is a folder";
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    return errno != 0 ? std::strerror(errno) : "it cannot be read";
}

}  // namespace wdl::util
