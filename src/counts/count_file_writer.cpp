#include <algorithm>
#include <charconv>
#include <vector>

#include "wdl/counts/count_file.hpp"

namespace wdl::counts {

std::string count_file_text(const CountMap& counts) {
    if (counts.distinct_keys() == 0) return "{}";
    std::vector<std::pair<std::string, std::uint64_t>> entries;
    entries.reserve(counts.distinct_keys());
    counts.for_each([&](std::uint64_t packed, std::uint64_t count) {
        entries.emplace_back(format_key(unpack_key(packed)), count);
    });
    std::sort(entries.begin(), entries.end());
    std::string json = "{\n";
    json.reserve(entries.size() * 32);
    char number[24];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        json += "  \"";
        json += entries[i].first;
        json += "\": ";
        json.append(number, std::to_chars(number, number + sizeof number, entries[i].second).ptr);
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
