#include "wdl/util/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "wdl/util/error.hpp"

namespace wdl::util {
namespace {

std::filesystem::path unique_temporary_name(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    auto name = target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                std::to_string(counter++);
    return target.parent_path() / name;
}

Error file_error(const std::string& what, const std::filesystem::path& path) {
    return Error(what + " " + path.string() + ": " + std::strerror(errno));
}

// The error of writing `target` through its temporary file: it names the file asked for, and a
// missing folder as such.
Error target_error(const std::filesystem::path& target) {
    int reason = errno;
    auto folder = target.parent_path();
    std::error_code ignored;
    if (reason == ENOENT && !folder.empty() && !std::filesystem::is_directory(folder, ignored))
        return Error("cannot write " + target.string() + ": the folder " + folder.string() +
                     " does not exist");
    return Error("cannot write " + target.string() + ": " + std::strerror(reason));
}

// A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a
// file over it would replace it, for every other program too.
bool is_special_file(const std::filesystem::path& path) {
    std::error_code error;
    auto status = std::filesystem::status(path, error);
    return !error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
           !std::filesystem::is_directory(status);
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
    if (is_special_file(target_)) {
        file_ = std::fopen(target_.c_str(), "wb");
        if (!file_) throw file_error("cannot open", target_);
        return;
    }
    temporary_ = unique_temporary_name(target_);
    file_ = std::fopen(temporary_.c_str(), "wb");
    if (!file_) throw target_error(target_);
}

AtomicFile::~AtomicFile() {
    if (committed_) return;
    if (file_) std::fclose(file_);
    std::error_code ignored;
    if (!temporary_.empty()) std::filesystem::remove(temporary_, ignored);
}

void AtomicFile::write(std::string_view bytes) {
    if (bytes.empty()) return;
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
        throw target_error(target_);
}

void AtomicFile::commit() {
    if (temporary_.empty()) {  // a special file, written in place
        bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!closed) throw file_error("cannot write", target_);
        committed_ = true;
        return;
    }
    bool ok = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
    ok = (std::fclose(file_) == 0) && ok;
    file_ = nullptr;
    if (!ok) throw target_error(target_);
    if (std::rename(temporary_.c_str(), target_.c_str()) != 0) throw target_error(target_);
    committed_ = true;
}

void write_file_atomically(const std::filesystem::path& target, std::string_view content) {
    AtomicFile file(target);
    file.write(content);
    file.commit();
}

}  // namespace wdl::util
