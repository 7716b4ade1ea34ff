// Gzip files as fishtest serves them: concatenations of many members. Each member is decoded
// in one piece by libdeflate (several times faster than zlib) when it fits the memory limits;
// a member that does not fit, or that libdeflate rejects, is streamed through zlib, which says
// what is wrong with it. A rejected member's output is held back until zlib reaches its end:
// only there does its checksum vouch for it. A truncated member keeps its decoded prefix (its
// last, cut game is dropped by the PGN reader); a corrupt one gives nothing.

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "input_file.hpp"
#include "readers.hpp"

namespace wdl::io {
namespace {

// PGN text compresses about 4-5x; guessing a bit more avoids most retries, and untouched
// pages of a large allocation cost no memory.
constexpr std::size_t kExpectedCompressionRatio = 6;
constexpr std::size_t kMinimumWindowBytes = std::size_t{64} << 10;

bool starts_like_gzip(std::string_view bytes) {
    return static_cast<unsigned char>(bytes[0]) == 0x1f &&
           (bytes.size() < 2 || static_cast<unsigned char>(bytes[1]) == 0x8b);
}

std::size_t window_capacity(const InputFile& file, const ReaderLimits& limits) {
    auto file_size = static_cast<std::size_t>(
        std::min<std::uint64_t>(file.size_when_opened(), limits.input_window_bytes));
    return std::min(limits.input_window_bytes, std::max(file_size, kMinimumWindowBytes));
}

class GzipReader final : public BlockReader {
  public:
    GzipReader(std::unique_ptr<InputFile> file, const ReaderLimits& limits)
        : file_(std::move(file)),
          limits_(limits),
          window_(*file_, window_capacity(*file_, limits)),
          whole_member_decoder_(libdeflate_alloc_decompressor()) {
        if (!whole_member_decoder_) throw std::bad_alloc();
    }

    ~GzipReader() override {
        libdeflate_free_decompressor(whole_member_decoder_);
        if (stream_initialized_) inflateEnd(&stream_);
    }

    std::size_t read_block(std::string& out) override;
    const std::string& damage() const override { return damage_; }
    std::uint64_t compressed_bytes_read() const override { return window_.offset(); }

  private:
    void decode_more();
    void start_next_member();
    bool decode_whole_member(bool& rejected);
    void start_streaming_member(bool hold_output);
    void stream_member();
    void end_streamed_member(std::string damage, bool keep_held_output);
    void ensure_output_capacity(std::size_t bytes);
    void finish(std::string damage);
    std::string describe_member(const char* problem) const;
    std::string describe_unexpected_bytes(std::string_view bytes) const;

    std::unique_ptr<InputFile> file_;
    ReaderLimits limits_;
    InputWindow window_;
    libdeflate_decompressor* whole_member_decoder_;
    z_stream stream_{};
    bool stream_initialized_ = false;
    bool streaming_ = false;
    bool holding_output_ = false;  // streaming a member libdeflate rejected
    std::string held_output_;      // its output so far
    std::unique_ptr<char[]> output_;
    std::size_t output_capacity_ = 0;
    std::string_view pending_;  // decoded bytes not yet handed out, inside output_
    std::uint64_t member_number_ = 0;
    std::uint64_t member_start_ = 0;
    bool finished_ = false;
    std::string damage_;
};

std::size_t GzipReader::read_block(std::string& out) {
    std::size_t start = out.size();
    while (out.size() - start < limits_.block_bytes) {
        if (pending_.empty()) {
            if (finished_) break;
            decode_more();
            continue;
        }
        std::size_t count = std::min(pending_.size(), limits_.block_bytes - (out.size() - start));
        out.append(pending_.substr(0, count));
        pending_.remove_prefix(count);
    }
    return out.size() - start;
}

// Every call consumes input, produces output or finishes, so read_block cannot loop forever.
void GzipReader::decode_more() {
    if (streaming_)
        stream_member();
    else
        start_next_member();
}

void GzipReader::start_next_member() {
    if (window_.available().size() < 2) window_.refill();
    auto input = window_.available();
    if (input.empty()) {
        finish(member_number_ == 0 ? "empty gzip file" : "");
        return;
    }
    if (!starts_like_gzip(input)) {
        finish(describe_unexpected_bytes(input));
        return;
    }
    ++member_number_;
    member_start_ = window_.offset();
    bool small_member = false;
    if (!decode_whole_member(small_member)) start_streaming_member(small_member);
}

// Returns false if the member must be streamed: too large for the limits, or (with
// `rejected` set) damaged.
bool GzipReader::decode_whole_member(bool& rejected) {
    for (;;) {
        auto input = window_.available();
        ensure_output_capacity(std::clamp(input.size() * kExpectedCompressionRatio,
                                          limits_.block_bytes, limits_.max_whole_member_bytes));
        std::size_t input_used = 0;
        std::size_t output_size = 0;
        auto result = libdeflate_gzip_decompress_ex(whole_member_decoder_, input.data(),
                                                    input.size(), output_.get(), output_capacity_,
                                                    &input_used, &output_size);
        if (result == LIBDEFLATE_SUCCESS) {
            window_.consume(input_used);
            pending_ = {output_.get(), output_size};
            return true;
        }
        if (result == LIBDEFLATE_INSUFFICIENT_SPACE) {
            if (output_capacity_ >= limits_.max_whole_member_bytes) return false;
            ensure_output_capacity(std::min(2 * output_capacity_, limits_.max_whole_member_bytes));
            continue;
        }
        // Bad data may only mean that the member goes on beyond the window.
        if (!window_.refill()) {
            rejected = true;
            return false;
        }
    }
}

void GzipReader::start_streaming_member(bool hold_output) {
    if (stream_initialized_) {
        inflateReset(&stream_);
    } else if (inflateInit2(&stream_, 16 + MAX_WBITS) == Z_OK) {
        stream_initialized_ = true;
    } else {
        finish("cannot initialise zlib");
        return;
    }
    streaming_ = true;
    holding_output_ = hold_output;
    held_output_.clear();
    stream_member();
}

void GzipReader::stream_member() {
    // Output released from holding has been handed out (pending_ is empty here): free it.
    if (!holding_output_ && !held_output_.empty()) std::string().swap(held_output_);
    ensure_output_capacity(limits_.block_bytes);
    auto chunk = static_cast<uInt>(std::min<std::size_t>(limits_.block_bytes, UINT_MAX));
    for (;;) {
        if (window_.available().empty() && !window_.refill()) {
            end_streamed_member(describe_member("truncated"), true);
            return;
        }
        auto input = window_.available();
        auto given = static_cast<uInt>(std::min<std::size_t>(input.size(), UINT_MAX));
        stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
        stream_.avail_in = given;
        stream_.next_out = reinterpret_cast<Bytef*>(output_.get());
        stream_.avail_out = chunk;
        int status = inflate(&stream_, Z_NO_FLUSH);
        window_.consume(given - stream_.avail_in);
        std::string_view produced(output_.get(), chunk - stream_.avail_out);
        if (holding_output_) {
            held_output_.append(produced);
            // A member whose output outgrows what may be held is given out as it comes (zlib
            // still checks its CRC at the end); only a smaller one waits for its CRC.
            if (held_output_.size() > limits_.max_whole_member_bytes) {
                holding_output_ = false;
                pending_ = held_output_;
            }
        } else {
            pending_ = produced;
        }
        if (status == Z_STREAM_END) {
            end_streamed_member("", true);
            return;
        }
        if (status != Z_OK) {
            end_streamed_member(
                describe_member("corrupt") + ": " + (stream_.msg ? stream_.msg : "bad data"),
                false);
            return;
        }
        if (!pending_.empty()) return;
    }
}

void GzipReader::end_streamed_member(std::string damage, bool keep_held_output) {
    streaming_ = false;
    if (holding_output_ && keep_held_output) pending_ = held_output_;
    holding_output_ = false;
    if (!damage.empty()) finish(std::move(damage));
}

// Only called while nothing is pending, so the old content can be dropped.
void GzipReader::ensure_output_capacity(std::size_t bytes) {
    if (output_capacity_ >= bytes) return;
    output_.reset();
    output_ = std::make_unique_for_overwrite<char[]>(bytes);
    output_capacity_ = bytes;
}

// A read error explains whatever the decoder saw after it, so it takes precedence.
void GzipReader::finish(std::string damage) {
    finished_ = true;
    streaming_ = false;
    damage_ = file_->error().empty() ? std::move(damage) : file_->error();
}

std::string GzipReader::describe_member(const char* problem) const {
    return std::string(problem) + " gzip member " + std::to_string(member_number_) +
           " (starts at byte " + std::to_string(member_start_) + ")";
}

std::string GzipReader::describe_unexpected_bytes(std::string_view bytes) const {
    if (member_number_ == 0) return "not a gzip file";
    bool zeros = std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
    return std::string(zeros ? "zero padding" : "unexpected bytes") + " after gzip member " +
           std::to_string(member_number_) + " (at byte " + std::to_string(window_.offset()) + ")";
}

}  // namespace

std::unique_ptr<BlockReader> make_gzip_reader(std::unique_ptr<InputFile> file,
                                              const ReaderLimits& limits) {
    return std::make_unique<GzipReader>(std::move(file), limits);
}

}  // namespace wdl::io
