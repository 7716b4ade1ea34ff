#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "compact_grouped_file.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/util/parallel_for.hpp"
#include "wdl/util/radix_sort.hpp"

namespace wdl::counts {
namespace {

struct Entry {
    std::uint64_t order;  // spelling_order of the key
    std::uint64_t key;    // packed
    std::uint64_t count;
};

struct OrderOf {
    std::uint64_t operator()(const Entry& entry) const { return entry.order; }
};
using SortedEntries = util::SortedRuns<Entry, OrderOf>;

// The counts of a plain map, sorted by key as spelled, without spelling them: formatting and
// comparing millions of strings would cost seconds. Listed and sorted in parts on the threads,
// as the scan with threads waits for it.
SortedEntries sorted_entries(const CountMap& counts, int threads) {
    const std::size_t parts = util::sorting_parts(counts.distinct_keys(), threads);
    const SpellingOrder order_of;
    auto list_part = [&](std::size_t part) {
        return counts.list_part<Entry>(part, parts, [&](std::uint64_t key, std::uint64_t count) {
            return Entry{order_of(unpack_key(key)), key, count};
        });
    };
    return SortedEntries(parts, threads, list_part, OrderOf{});
}

// The longest line of a count object: indent and quote, key, quote, colon and space, a count of
// up to 20 digits, and its ending (",\n", or "\n}" after the last).
constexpr std::size_t kLongestLine = 3 + kLongestKeySpelling + 3 + 20 + 2;

// One count object: "{}" when empty, else one "key": count line per entry, two-space indent.
// Returned in up to `threads` pieces, formatted at once, each merging its part of the sorted
// runs as it goes: joined, they are the object. (Writing the file is time a scan with threads
// spends on one.)
std::vector<util::FillableVector<char>> count_object(SortedEntries entries, int threads) {
    if (entries.size() == 0) return {util::FillableVector<char>{'{', '}'}};
    entries.cut(std::size_t(std::max(threads, 1)));
    std::vector<util::FillableVector<char>> pieces(entries.pieces());
    util::parallel_for(pieces.size(), int(pieces.size()), [&](std::size_t, std::size_t piece) {
        const std::size_t begin = entries.piece_begin(piece);
        std::size_t number = begin;
        // Written through a pointer into room for the longest lines, which is only touched as
        // far as it is used, and built apart: the pieces' objects share a cache line, and
        // filling them in place from two threads made both threads slower than one.
        util::FillableVector<char> text(2 +
                                        (entries.piece_begin(piece + 1) - begin) * kLongestLine);
        char* out = text.data();
        if (piece == 0) out = std::copy_n("{\n", 2, out);
        entries.for_each_in_piece(piece, [&](const Entry& entry) {
            out = std::copy_n("  \"", 3, out);
            out = write_key(out, unpack_key(entry.key));
            out = std::copy_n("\": ", 3, out);
            out = std::to_chars(out, out + 20, entry.count).ptr;
            out = std::copy_n(++number < entries.size() ? ",\n" : "\n}", 2, out);
        });
        text.resize(std::size_t(out - text.data()));
        pieces[piece] = std::move(text);
    });
    return pieces;
}

std::string_view as_text(const util::FillableVector<char>& piece) {
    return {piece.data(), piece.size()};
}

}  // namespace

std::string count_file_text(const CountMap& counts) {
    std::string text;
    for (const auto& piece : count_object(sorted_entries(counts, 1), 1)) text += as_text(piece);
    return text;
}

void write_count_file(const CountMap& counts, util::AtomicFile& output, int threads) {
    for (const auto& piece : count_object(sorted_entries(counts, threads), threads))
        output.write(as_text(piece));
    output.commit();
}

std::string grouped_count_file_bytes(const GroupedCounts& grouped_counts, const GroupLabels* labels,
                                     int threads) {
    std::string bytes;
    compact::write(grouped_counts, labels, threads,
                   [&bytes](std::string_view piece) { bytes += piece; });
    return bytes;
}

void write_grouped_count_file(const GroupedCounts& grouped_counts, util::AtomicFile& output,
                              const GroupLabels* labels, int threads) {
    compact::write(grouped_counts, labels, threads,
                   [&output](std::string_view piece) { output.write(piece); });
    output.commit();
}

void write_counts(const PositionCounts& counts, util::AtomicFile& output, const GroupLabels* labels,
                  int threads) {
    if (counts.grouped) {
        write_grouped_count_file(*counts.grouped, output, labels, threads);
    } else {
        write_count_file(counts.plain, output, threads);
    }
}

}  // namespace wdl::counts
