#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace wdl::util {

// The bytes of a whole file, or nothing when it cannot be opened or read: each caller words its
// own error (which file, for which option), or goes on without the file.
std::optional<std::string> read_whole_file(const std::filesystem::path& path);

// Why a file cannot be read, for an error message: "it does not exist", "it is a folder", or
// the system's reason ("Permission denied").
std::string unreadable_reason(const std::filesystem::path& path);

}  // namespace wdl::util
