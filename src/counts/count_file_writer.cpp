#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <vector>

#include "wdl/counts/count_file.hpp"

namespace wdl::counts {

namespace {

// A key's spelling, zero-padded to 32 bytes and held as four big-endian words: comparing the
// words orders the spellings as strings (padding sorts before any character), without a string
// allocation per key. Sorting heap strings took a tenth of a scan's time on large corpora.
struct SpelledEntry {
    static constexpr std::size_t kBytes =
        32;  // the longest spelling, "('W', 65535, 255, -32768)", is 25
    std::array<std::uint64_t, kBytes / 8> words{};
    std::uint64_t count = 0;

    SpelledEntry(std::string_view spelling, std::uint64_t key_count) : count(key_count) {
        char bytes[kBytes] = {};
        std::memcpy(bytes, spelling.data(), std::min(spelling.size(), kBytes));
        std::memcpy(words.data(), bytes, kBytes);
        for (auto& word : words) word = big_endian(word);
    }
    void append_spelling(std::string& out) const {
        char bytes[kBytes];
        auto native = words;
        for (auto& word : native) word = big_endian(word);
        std::memcpy(bytes, native.data(), kBytes);
        out.append(bytes, strnlen(bytes, kBytes));
    }
    static std::uint64_t big_endian(std::uint64_t word) {
        if constexpr (std::endian::native == std::endian::little) return __builtin_bswap64(word);
        return word;
    }
    bool operator<(const SpelledEntry& other) const { return words < other.words; }
};

}  // namespace

std::string count_file_text(const CountMap& counts) {
    if (counts.distinct_keys() == 0) return "{}";
    std::vector<SpelledEntry> entries;
    entries.reserve(counts.distinct_keys());
    std::string spelling;
    counts.for_each([&](std::uint64_t packed, std::uint64_t count) {
        spelling.clear();
        append_key(spelling, unpack_key(packed));
        entries.emplace_back(spelling, count);
    });
    std::sort(entries.begin(), entries.end());
    std::string json = "{\n";
    json.reserve(entries.size() * 32);
    char number[24];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        json += "  \"";
        entries[i].append_spelling(json);
        json += "\": ";
        json.append(number, std::to_chars(number, number + sizeof number, entries[i].count).ptr);
        json += i + 1 < entries.size() ? ",\n" : "\n";
    }
    json += "}";
    return json;
}

void write_count_file(const CountMap& counts, util::AtomicFile& output) {
    output.write(count_file_text(counts));
    output.commit();
}

}  // namespace wdl::counts
