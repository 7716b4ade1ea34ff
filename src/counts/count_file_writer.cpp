#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <span>
#include <stdexcept>
#include <vector>

#include "wdl/counts/count_file.hpp"

namespace wdl::counts {
namespace {

struct Entry {
    std::uint64_t order;  // spelling_order of the key
    std::uint64_t key;    // packed, without its group
    std::uint64_t count;
    bool operator<(const Entry& other) const { return order < other.order; }
};

// The counts of a plain map, sorted by key as spelled, without spelling them: formatting and
// comparing millions of strings would cost seconds.
std::vector<Entry> sorted_entries(const CountMap& counts) {
    std::vector<Entry> entries;
    entries.reserve(counts.distinct_keys());
    counts.for_each([&](std::uint64_t key, std::uint64_t count) {
        if (group_of_packed(key) != 0)
            throw std::invalid_argument("count file writer: grouped counts in a plain file");
        entries.push_back({spelling_order(unpack_key(key)), key, count});
    });
    std::sort(entries.begin(), entries.end());
    return entries;
}

// One count object: "{}" when empty, else one "key": count line per entry, two-space indent.
std::string count_object(std::span<const Entry> entries) {
    if (entries.empty()) return "{}";
    std::string json = "{\n";
    json.reserve(entries.size() * 32);
    char number[24];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        json += "  \"";
        append_key(json, unpack_key(entries[i].key));
        json += "\": ";
        json.append(number, std::to_chars(number, number + sizeof number, entries[i].count).ptr);
        json += i + 1 < entries.size() ? ",\n" : "\n";
    }
    json += "}";
    return json;
}

// The keys of grouped counts, each once, sorted as spelled; `numbers` maps each packed key
// to its place in that list.
std::vector<Entry> key_list(const CountMap& grouped_counts, CountMap& numbers) {
    grouped_counts.for_each(
        [&](std::uint64_t grouped, std::uint64_t) { numbers.add(without_group(grouped), 0); });
    std::vector<Entry> keys;
    keys.reserve(numbers.distinct_keys());
    numbers.for_each([&](std::uint64_t key, std::uint64_t) {
        keys.push_back({spelling_order(unpack_key(key)), key, 0});
    });
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < keys.size(); ++i) numbers.add(keys[i].key, i);
    return keys;
}

// Each group's (key number, count) pairs, in the order of the keys.
std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> group_pairs(
    const CountMap& grouped_counts, const CountMap& numbers, int groups) {
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> pairs(
        static_cast<std::size_t>(groups));
    grouped_counts.for_each([&](std::uint64_t grouped, std::uint64_t count) {
        auto group = std::size_t(group_of_packed(grouped));
        if (group >= pairs.size())
            throw std::invalid_argument("count file writer: a key's group is beyond the groups");
        pairs[group].emplace_back(*numbers.count_of(without_group(grouped)), count);
    });
    for (auto& group : pairs) std::sort(group.begin(), group.end());
    return pairs;
}

// Calls write(text) with the grouped file's text piece by piece, so that a large file is never
// held whole in memory.
template <typename Write>
void grouped_text(const CountMap& grouped_counts, const Grouping& grouping, Write&& write) {
    CountMap numbers;
    std::vector<Entry> keys = key_list(grouped_counts, numbers);
    auto pairs = group_pairs(grouped_counts, numbers, grouping.groups);
    write(fmt::format(
        "{{\n  \"format\": \"{}\",\n  \"version\": {},\n  \"groupBy\": \"{}\",\n"
        "  \"groups\": {},\n  \"keys\": [",
        kGroupedFormat, kGroupedFormatVersion, group_by_name(grouping.by), grouping.groups));
    std::string piece;
    constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        piece += i == 0 ? "\n    \"" : ",\n    \"";
        append_key(piece, unpack_key(keys[i].key));
        piece += '"';
        if (piece.size() >= kPieceBytes) {
            write(piece);
            piece.clear();
        }
    }
    piece += keys.empty() ? "],\n  \"counts\": [\n" : "\n  ],\n  \"counts\": [\n";
    char number[24];
    for (std::size_t group = 0; group < pairs.size(); ++group) {
        piece += "    [";
        for (std::size_t i = 0; i < pairs[group].size(); ++i) {
            if (i > 0) piece += ", ";
            piece.append(number,
                         std::to_chars(number, number + sizeof number, pairs[group][i].first).ptr);
            piece += ", ";
            piece.append(number,
                         std::to_chars(number, number + sizeof number, pairs[group][i].second).ptr);
        }
        piece += group + 1 < pairs.size() ? "],\n" : "]\n";
        if (piece.size() >= kPieceBytes) {
            write(piece);
            piece.clear();
        }
    }
    write(piece + "  ]\n}");
}

}  // namespace

std::string count_file_text(const CountMap& counts) { return count_object(sorted_entries(counts)); }

void write_count_file(const CountMap& counts, util::AtomicFile& output) {
    output.write(count_file_text(counts));
    output.commit();
}

std::string grouped_count_file_text(const CountMap& grouped_counts, const Grouping& grouping) {
    std::string json;
    grouped_text(grouped_counts, grouping, [&json](std::string_view piece) { json += piece; });
    return json;
}

void write_grouped_count_file(const CountMap& grouped_counts, const Grouping& grouping,
                              util::AtomicFile& output) {
    grouped_text(grouped_counts, grouping,
                 [&output](std::string_view piece) { output.write(piece); });
    output.commit();
}

void for_each_grouped_count(const CountMap& grouped_counts, const GroupedCountSink& function) {
    grouped_counts.for_each([&](std::uint64_t grouped, std::uint64_t count) {
        function(group_of_packed(grouped), unpack_key(without_group(grouped)), std::int64_t(count));
    });
}

}  // namespace wdl::counts
