#include "wdl/fishtest/game_file_check.hpp"

#include <fmt/core.h>
#include <zlib.h>

#include <fstream>
#include <stdexcept>
#include <vector>

namespace wdl::fishtest {
namespace {

// A gzip-only inflater (no zlib or raw streams), ended on every way out.
struct GzipInflater {
    z_stream stream{};
    GzipInflater() {
        if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
            throw std::runtime_error("cannot initialize zlib");
    }
    ~GzipInflater() { inflateEnd(&stream); }
    GzipInflater(const GzipInflater&) = delete;
    GzipInflater& operator=(const GzipInflater&) = delete;
};

}  // namespace

std::optional<std::string> gzip_file_defect(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return "cannot open " + file.string();
    GzipInflater inflater;
    z_stream& stream = inflater.stream;
    std::vector<unsigned char> input(1 << 16), output(1 << 16);
    int complete_members = 0;
    bool inside_member = false;
    for (;;) {
        if (stream.avail_in == 0) {
            in.read(reinterpret_cast<char*>(input.data()), std::streamsize(input.size()));
            if (in.gcount() == 0) break;
            stream.next_in = input.data();
            stream.avail_in = uInt(in.gcount());
        }
        inside_member = true;
        // The inflated text is not needed, only the verdict: the output buffer is reused.
        stream.next_out = output.data();
        stream.avail_out = uInt(output.size());
        int status = inflate(&stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            ++complete_members;
            inside_member = false;
            inflateReset(&stream);
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            std::string why = stream.msg ? stream.msg : "zlib error " + std::to_string(status);
            if (complete_members == 0) return "not valid gzip data (" + why + ")";
            return fmt::format("bad data after {} complete gzip member(s) ({})", complete_members,
                               why);
        }
    }
    if (in.bad()) return "cannot read " + file.string();
    if (inside_member)
        return fmt::format("truncated gzip data (it ends inside member {})", complete_members + 1);
    if (complete_members == 0) return "empty, not gzip data";
    return std::nullopt;
}

}  // namespace wdl::fishtest
