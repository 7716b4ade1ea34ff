#pragma once

#include <cstdio>
#include <filesystem>
#include <string_view>

namespace wdl::util {

// A file that appears under its final name only once it is complete: data goes to a
// temporary file in the same directory, which commit() renames over the target.
// Destroying an uncommitted AtomicFile removes the temporary file. A target that is a device,
// pipe or socket (/dev/null, a FIFO) is written in place instead, never replaced.
class AtomicFile {
  public:
    explicit AtomicFile(std::filesystem::path target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view bytes);
    // Flushes, syncs and renames; throws wdl::Error naming the file on failure.
    void commit();

    // Where the bytes go until commit(): the temporary file, or a special target itself.
    const std::filesystem::path& written_path() const {
        return temporary_.empty() ? target_ : temporary_;
    }
    std::FILE* stream() { return file_; }

  private:
    std::filesystem::path target_;
    std::filesystem::path temporary_;
    std::FILE* file_ = nullptr;
    bool committed_ = false;
};

// Writes the whole content atomically (see AtomicFile).
void write_file_atomically(const std::filesystem::path& target, std::string_view content);

}  // namespace wdl::util
