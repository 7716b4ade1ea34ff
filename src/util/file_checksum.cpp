#include "wdl/util/file_checksum.hpp"

#include <zlib.h>

#include <fstream>
#include <vector>

#include "wdl/util/error.hpp"

namespace wdl::util {

std::uint32_t file_crc32(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error("cannot read " + file.string());
    uLong crc = crc32(0L, Z_NULL, 0);
    std::vector<char> buffer(std::size_t{1} << 20);
    while (in) {
        in.read(buffer.data(), std::streamsize(buffer.size()));
        auto got = in.gcount();
        if (got > 0) crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer.data()), uInt(got));
    }
    if (in.bad()) throw Error("cannot read " + file.string());
    return std::uint32_t(crc);
}

}  // namespace wdl::util
