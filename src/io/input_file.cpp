#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "wdl/util/error.hpp"

namespace wdl::io {
namespace {

Error open_error(const std::filesystem::path& path, int error_number) {
    return Error("cannot open " + path.string() + ": " + std::strerror(error_number));
}

}  // namespace

InputFile::InputFile(const std::filesystem::path& path) {
    descriptor_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor_ < 0) throw open_error(path, errno);
    struct stat status {};
    if (::fstat(descriptor_, &status) != 0) {
        int error_number = errno;
        ::close(descriptor_);
        throw open_error(path, error_number);
    }
    // open() succeeds on a directory; read() would only fail later with EISDIR.
    if (S_ISDIR(status.st_mode)) {
        ::close(descriptor_);
        throw open_error(path, EISDIR);
    }
    size_when_opened_ = static_cast<std::uint64_t>(status.st_size);
    ::posix_fadvise(descriptor_, 0, 0, POSIX_FADV_SEQUENTIAL);
}

InputFile::~InputFile() { ::close(descriptor_); }

std::size_t InputFile::read(char* destination, std::size_t size) {
    std::size_t total = 0;
    while (total < size && error_.empty()) {
        ssize_t count = ::read(descriptor_, destination + total, size - total);
        if (count > 0) {
            total += static_cast<std::size_t>(count);
        } else if (count == 0) {
            break;
        } else if (errno != EINTR) {
            error_ = std::string("read error: ") + std::strerror(errno);
        }
    }
    bytes_read_ += total;
    return total;
}

InputWindow::InputWindow(InputFile& file, std::size_t capacity)
    : file_(file), buffer_(std::make_unique_for_overwrite<char[]>(capacity)), capacity_(capacity) {}

bool InputWindow::refill() {
    if (file_ended_) return false;
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    std::size_t wanted = capacity_ - end_;
    std::size_t count = file_.read(buffer_.get() + end_, wanted);
    end_ += count;
    if (count < wanted) file_ended_ = true;
    return count > 0;
}

}  // namespace wdl::io
