#include "wdl/util/base64.hpp"

#include <array>
#include <cstdint>

namespace wdl::util {

std::string base64_encode(std::string_view bytes) {
    static constexpr std::string_view kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string encoded;
    encoded.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    // Each 3 bytes become 4 characters of 6 bits each.
    for (; i + 3 <= bytes.size(); i += 3) {
        std::uint32_t word = std::uint32_t(std::uint8_t(bytes[i])) << 16 |
                             std::uint32_t(std::uint8_t(bytes[i + 1])) << 8 |
                             std::uint32_t(std::uint8_t(bytes[i + 2]));
        for (int shift = 18; shift >= 0; shift -= 6) encoded += kAlphabet[(word >> shift) & 63];
    }
    // The last 1 or 2 bytes: 2 or 3 characters, padded with '=' to 4.
    std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        std::uint32_t word = std::uint32_t(std::uint8_t(bytes[i])) << 16;
        if (rest == 2) word |= std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
        encoded += kAlphabet[(word >> 18) & 63];
        encoded += kAlphabet[(word >> 12) & 63];
        encoded += rest == 2 ? kAlphabet[(word >> 6) & 63] : '=';
        encoded += '=';
    }
    return encoded;
}

}  // namespace wdl::util
