#include "wdl/io/block_reader.hpp"

#include <algorithm>

#include "input_file.hpp"
#include "readers.hpp"

namespace wdl::io {
namespace {

// Zero-sized limits would make read_block return 0 (end of data) or stop making progress.
ReaderLimits usable(ReaderLimits limits) {
    limits.block_bytes = std::max<std::size_t>(limits.block_bytes, 1);
    limits.input_window_bytes = std::max<std::size_t>(limits.input_window_bytes, 16);
    limits.max_whole_member_bytes = std::max<std::size_t>(limits.max_whole_member_bytes, 1);
    return limits;
}

class PlainReader final : public BlockReader {
  public:
    PlainReader(std::unique_ptr<InputFile> file, const ReaderLimits& limits)
        : file_(std::move(file)), block_bytes_(limits.block_bytes) {}

    std::size_t read_block(std::string& out) override {
        std::size_t old_size = out.size();
        out.resize(old_size + block_bytes_);
        std::size_t count = file_->read(out.data() + old_size, block_bytes_);
        out.resize(old_size + count);
        if (count == 0) damage_ = file_->error();
        return count;
    }
    const std::string& damage() const override { return damage_; }
    std::uint64_t compressed_bytes_read() const override { return file_->bytes_read(); }

  private:
    std::unique_ptr<InputFile> file_;
    std::size_t block_bytes_;
    std::string damage_;
};

}  // namespace

Compression compression_for(const std::filesystem::path& path) {
    auto extension = path.extension();
    if (extension == ".gz") return Compression::Gzip;
    if (extension == ".zst") return Compression::Zstd;
    return Compression::None;
}

std::unique_ptr<BlockReader> make_plain_reader(std::unique_ptr<InputFile> file,
                                               const ReaderLimits& limits) {
    return std::make_unique<PlainReader>(std::move(file), limits);
}

std::unique_ptr<BlockReader> BlockReader::open(const std::filesystem::path& path,
                                               const ReaderLimits& limits) {
    return open(path, compression_for(path), limits);
}

std::unique_ptr<BlockReader> BlockReader::open(const std::filesystem::path& path,
                                               Compression compression,
                                               const ReaderLimits& limits) {
    auto file = std::make_unique<InputFile>(path);
    auto checked_limits = usable(limits);
    switch (compression) {
        case Compression::Gzip:
            return make_gzip_reader(std::move(file), checked_limits);
        case Compression::Zstd:
            return make_zstd_reader(std::move(file), checked_limits);
        case Compression::None:
            break;
    }
    return make_plain_reader(std::move(file), checked_limits);
}

}  // namespace wdl::io
