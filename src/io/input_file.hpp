#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace wdl::io {

// A file opened for sequential reading. A read error is remembered (error()) and then looks
// like the end of the file, so readers report it as damage instead of throwing mid-stream.
class InputFile {
  public:
    // Throws wdl::Error naming the file if it cannot be opened or is a directory.
    explicit InputFile(const std::filesystem::path& path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    // Reads until `size` bytes arrived or the file ended; returns the count.
    std::size_t read(char* destination, std::size_t size);

    std::uint64_t size_when_opened() const { return size_when_opened_; }
    std::uint64_t bytes_read() const { return bytes_read_; }
    const std::string& error() const { return error_; }

  private:
    int descriptor_ = -1;
    std::uint64_t size_when_opened_ = 0;
    std::uint64_t bytes_read_ = 0;
    std::string error_;
};

// The next compressed bytes of a file, held in a fixed-size buffer: decoders look at
// available(), consume() what they used, and refill() when they need more.
class InputWindow {
  public:
    InputWindow(InputFile& file, std::size_t capacity);

    std::string_view available() const { return {buffer_.get() + begin_, end_ - begin_}; }
    void consume(std::size_t count) { begin_ += count; }

    // Moves the unconsumed bytes to the front and reads until the buffer is full or the file
    // ends. Returns whether any byte was added (false: the window is full or the file ended).
    bool refill();

    bool file_ended() const { return file_ended_; }
    // File offset of the first unconsumed byte.
    std::uint64_t offset() const { return file_.bytes_read() - (end_ - begin_); }

  private:
    InputFile& file_;
    std::unique_ptr<char[]> buffer_;
    std::size_t capacity_;
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
    bool file_ended_ = false;
};

}  // namespace wdl::io
