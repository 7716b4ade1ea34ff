#include "wdl/scan/counts_json.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "wdl/util/atomic_file.hpp"

namespace wdl::scan {

std::string counts_to_json(const CountMap& counts) {
    if (counts.distinct_keys() == 0) return "{}";
    std::vector<std::pair<std::string, std::uint64_t>> entries;
    entries.reserve(counts.distinct_keys());
    counts.for_each([&](std::uint64_t packed, std::uint64_t count) {
        entries.emplace_back(model::format_key(model::unpack_key(packed)), count);
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

void write_counts_json(const CountMap& counts, util::AtomicFile& output) {
    output.write(counts_to_json(counts));
    output.commit();
}

}  // namespace wdl::scan
