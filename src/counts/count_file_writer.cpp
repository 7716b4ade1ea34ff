#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "wdl/counts/count_file.hpp"
#include "wdl/util/radix_sort.hpp"

namespace wdl::counts {
namespace {

struct Entry {
    std::uint64_t order;  // spelling_order of the key
    std::uint64_t key;    // packed
    std::uint64_t count;
};

// The counts of a plain map, sorted by key as spelled, without spelling them: formatting and
// comparing millions of strings would cost seconds.
std::vector<Entry> sorted_entries(const CountMap& counts) {
    std::vector<Entry> entries;
    entries.reserve(counts.distinct_keys());
    counts.for_each([&](std::uint64_t key, std::uint64_t count) {
        entries.push_back({spelling_order(unpack_key(key)), key, count});
    });
    util::radix_sort(entries, [](const Entry& entry) { return entry.order; });
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

// "labels" of a grouped file, one unit a line.
std::string labels_text(const GroupLabels& labels) {
    auto json = labels_json(labels);
    std::string text = fmt::format("  \"labels\": {{\"groupsPerLabel\": {}, \"units\": [",
                                   labels.groups_per_label);
    const auto& units = json["units"];
    for (std::size_t i = 0; i < units.size(); ++i)
        text += (i == 0 ? "\n    " : ",\n    ") + units[i].dump();
    text += units.empty() ? "]},\n" : "\n  ]},\n";
    return text;
}

// Calls write(text) with the grouped file's text piece by piece, so that a large file is never
// held whole in memory.
template <typename Write>
void grouped_text(const GroupedCounts& grouped_counts, const GroupLabels* labels, Write&& write) {
    const Grouping& grouping = grouped_counts.grouping();
    if (labels && labels->group_count() != grouping.groups)
        throw std::invalid_argument("grouped count file: the labels do not name every group");
    auto ordered =
        grouped_counts.ordered([](std::uint64_t key) { return spelling_order(unpack_key(key)); });
    const std::vector<std::uint64_t>& keys = ordered.keys;
    write(fmt::format(
        "{{\n  \"format\": \"{}\",\n  \"version\": {},\n  \"groupBy\": \"{}\",\n"
        "  \"groups\": {},\n",
        kGroupedFormat, kGroupedFormatVersion, group_by_name(grouping.by), grouping.groups));
    if (labels) write(labels_text(*labels));
    write("  \"keys\": [");
    std::string piece;
    constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        piece += i == 0 ? "\n    \"" : ",\n    \"";
        append_key(piece, unpack_key(keys[i]));
        piece += '"';
        if (piece.size() >= kPieceBytes) {
            write(piece);
            piece.clear();
        }
    }
    piece += keys.empty() ? "],\n  \"counts\": [\n" : "\n  ],\n  \"counts\": [\n";
    for (int group = 0; group < grouping.groups; ++group) {
        piece += "    [";
        bool first = true;
        ordered.for_each_in_group(group, [&](std::uint64_t key_number, std::uint64_t count) {
            // One append a pair: this loop writes most of a grouped file's bytes.
            // ", " + at most 20 digits + ", " + at most 20 digits: each number has a field of
            // its own, so that the compiler sees every write within the buffer.
            char pair[48];
            char* end = pair;
            if (!first) {
                *end++ = ',';
                *end++ = ' ';
            }
            first = false;
            end = std::to_chars(end, pair + 22, key_number).ptr;
            *end++ = ',';
            *end++ = ' ';
            end = std::to_chars(end, pair + sizeof pair, count).ptr;
            piece.append(pair, end);
        });
        piece += group + 1 < grouping.groups ? "],\n" : "]\n";
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

std::string grouped_count_file_text(const GroupedCounts& grouped_counts,
                                    const GroupLabels* labels) {
    std::string json;
    grouped_text(grouped_counts, labels, [&json](std::string_view piece) { json += piece; });
    return json;
}

void write_grouped_count_file(const GroupedCounts& grouped_counts, util::AtomicFile& output,
                              const GroupLabels* labels) {
    grouped_text(grouped_counts, labels,
                 [&output](std::string_view piece) { output.write(piece); });
    output.commit();
}

void write_counts(const PositionCounts& counts, util::AtomicFile& output,
                  const GroupLabels* labels) {
    if (counts.grouped) {
        write_grouped_count_file(*counts.grouped, output, labels);
    } else {
        write_count_file(counts.plain, output);
    }
}

}  // namespace wdl::counts
