// Zstandard files: one or more frames back to back, decoded by one streaming decoder.

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <new>
#include <string>

#include "input_file.hpp"
#include "readers.hpp"

namespace wdl::io {
namespace {

constexpr std::size_t kWindowBytes = std::size_t{4} << 20;

class ZstdReader final : public BlockReader {
  public:
    ZstdReader(std::unique_ptr<InputFile> file, const ReaderLimits& limits)
        : file_(std::move(file)),
          block_bytes_(limits.block_bytes),
          window_(*file_, std::min(kWindowBytes, limits.input_window_bytes)),
          stream_(ZSTD_createDStream()) {
        if (!stream_) throw std::bad_alloc();
    }
    ~ZstdReader() override { ZSTD_freeDStream(stream_); }

    std::size_t read_block(std::string& out) override {
        std::size_t start = out.size();
        while (!finished_ && out.size() - start < block_bytes_)
            decode_step(out, block_bytes_ - (out.size() - start));
        return out.size() - start;
    }
    const std::string& damage() const override { return damage_; }
    std::uint64_t compressed_bytes_read() const override { return window_.offset(); }

  private:
    void decode_step(std::string& out, std::size_t room);
    void finish_without_progress(bool input_left);
    void finish(std::string damage);
    std::string frame_description() const;

    std::unique_ptr<InputFile> file_;
    std::size_t block_bytes_;
    InputWindow window_;
    ZSTD_DStream* stream_;
    std::uint64_t frames_completed_ = 0;
    bool frame_open_ = false;  // a frame began and has not been completely decoded
    bool finished_ = false;
    std::string damage_;
};

// With an empty input the call still flushes output the decoder holds back, so a truncated
// frame yields everything decodable before the file ends.
void ZstdReader::decode_step(std::string& out, std::size_t room) {
    if (window_.available().empty()) window_.refill();
    auto available = window_.available();
    std::size_t old_size = out.size();
    out.resize(old_size + room);
    ZSTD_inBuffer input{available.data(), available.size(), 0};
    ZSTD_outBuffer output{out.data() + old_size, room, 0};
    std::size_t result = ZSTD_decompressStream(stream_, &output, &input);
    out.resize(old_size + output.pos);
    window_.consume(input.pos);
    if (ZSTD_isError(result)) {
        finish("corrupt " + frame_description() + ": " + ZSTD_getErrorName(result));
    } else if (input.pos == 0 && output.pos == 0) {
        finish_without_progress(!available.empty());
    } else if (result == 0) {
        ++frames_completed_;
        frame_open_ = false;
    } else {
        frame_open_ = true;
    }
}

// zstd always progresses while it has input and output room; stopping otherwise rules out
// a hang should that ever fail.
void ZstdReader::finish_without_progress(bool input_left) {
    if (input_left)
        finish("zstd decoder stalled in " + frame_description());
    else if (frame_open_)
        finish("truncated " + frame_description());
    else
        finish(frames_completed_ == 0 ? "empty zstd file" : "");
}

void ZstdReader::finish(std::string damage) {
    finished_ = true;
    damage_ = file_->error().empty() ? std::move(damage) : file_->error();
}

std::string ZstdReader::frame_description() const {
    return "zstd frame " + std::to_string(frames_completed_ + 1) + " (near byte " +
           std::to_string(window_.offset()) + ")";
}

}  // namespace

std::unique_ptr<BlockReader> make_zstd_reader(std::unique_ptr<InputFile> file,
                                              const ReaderLimits& limits) {
    return std::make_unique<ZstdReader>(std::move(file), limits);
}

}  // namespace wdl::io
