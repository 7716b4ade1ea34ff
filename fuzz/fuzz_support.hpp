#pragma once
// Helpers of the fuzz targets: inputs that a library function reads from a file.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace wdl::fuzz {

// A file holding the fuzzer's bytes, named with `suffix` (the extension decides the reader),
// removed when done. One per process: libFuzzer runs inputs one after another.
class InputFile {
  public:
    InputFile(const std::uint8_t* data, std::size_t size, const std::string& suffix)
        : path_(std::filesystem::temp_directory_path() /
                ("wdl_fuzz_" + std::to_string(::getpid()) + suffix)) {
        std::ofstream out(path_, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }
    ~InputFile() {
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace wdl::fuzz
