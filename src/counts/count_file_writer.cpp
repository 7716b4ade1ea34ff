#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <span>
#include <tuple>
#include <vector>

#include "wdl/counts/count_file.hpp"

namespace wdl::counts {
namespace {

struct Entry {
    int group;
    std::string key;
    std::uint64_t count;
    bool operator<(const Entry& other) const {
        return std::tie(group, key) < std::tie(other.group, other.key);
    }
};

// The entries of every count of the map, sorted by group, then by key as spelled.
std::vector<Entry> sorted_entries(const CountMap& counts) {
    std::vector<Entry> entries;
    entries.reserve(counts.distinct_keys());
    counts.for_each([&](std::uint64_t grouped, std::uint64_t count) {
        entries.push_back(
            {group_of_packed(grouped), format_key(unpack_key(without_group(grouped))), count});
    });
    std::sort(entries.begin(), entries.end());
    return entries;
}

// One count object: "{}" when empty, else one "key": count line per entry, the entries
// indented by `indent` + 2 and the closing brace by `indent`.
void append_count_object(std::string& json, std::span<const Entry> entries, std::size_t indent) {
    if (entries.empty()) {
        json += "{}";
        return;
    }
    json += "{\n";
    char number[24];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        json.append(indent + 2, ' ');
        json += '"';
        json += entries[i].key;
        json += "\": ";
        json.append(number, std::to_chars(number, number + sizeof number, entries[i].count).ptr);
        json += i + 1 < entries.size() ? ",\n" : "\n";
    }
    json.append(indent, ' ');
    json += "}";
}

}  // namespace

std::string count_file_text(const CountMap& counts) {
    std::vector<Entry> entries = sorted_entries(counts);
    std::string json;
    json.reserve(entries.size() * 32);
    append_count_object(json, entries, 0);
    return json;
}

void write_count_file(const CountMap& counts, util::AtomicFile& output) {
    output.write(count_file_text(counts));
    output.commit();
}

std::string grouped_count_file_text(const CountMap& grouped_counts, const Grouping& grouping) {
    std::vector<Entry> entries = sorted_entries(grouped_counts);
    std::string json = fmt::format(
        "{{\n  \"format\": \"{}\",\n  \"version\": {},\n  \"groupBy\": \"{}\",\n"
        "  \"groups\": {},\n  \"counts\": [\n",
        kGroupedFormat, kGroupedFormatVersion, group_by_name(grouping.by), grouping.groups);
    json.reserve(json.size() + entries.size() * 36 + std::size_t(grouping.groups) * 8);
    auto first = entries.begin();
    for (int group = 0; group < grouping.groups; ++group) {
        auto last = std::find_if(first, entries.end(),
                                 [group](const Entry& entry) { return entry.group != group; });
        json += "    ";
        append_count_object(json, std::span<const Entry>(first, last), 4);
        json += group + 1 < grouping.groups ? ",\n" : "\n";
        first = last;
    }
    json += "  ]\n}";
    return json;
}

void write_grouped_count_file(const CountMap& grouped_counts, const Grouping& grouping,
                              util::AtomicFile& output) {
    output.write(grouped_count_file_text(grouped_counts, grouping));
    output.commit();
}

void for_each_grouped_count(const CountMap& grouped_counts, const GroupedCountSink& function) {
    grouped_counts.for_each([&](std::uint64_t grouped, std::uint64_t count) {
        function(group_of_packed(grouped), unpack_key(without_group(grouped)), std::int64_t(count));
    });
}

}  // namespace wdl::counts
