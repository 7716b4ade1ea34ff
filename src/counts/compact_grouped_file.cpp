#include "compact_grouped_file.hpp"

#include <fmt/format.h>
#include <libdeflate.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::counts::compact {
namespace {

// Keys of one block: blocks are what the threads encode and decode, and what a checksum covers.
constexpr std::size_t kKeysPerBlock = 4096;
// Readers accept blocks of up to this many keys.
constexpr std::uint64_t kMaxKeysPerBlock = 65536;
// A file this large is decoded in two pieces at once.
constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
// Packed keys (position_key.hpp) have results 0-2 in bits 40-41 and nothing above.
constexpr std::uint64_t kKeyLimit = std::uint64_t{3} << 40;

char* put_varint(char* out, std::uint64_t value) {
    for (; value >= 0x80; value >>= 7) *out++ = char(value | 0x80);
    *out++ = char(value);
    return out;
}

void put_varint(std::string& out, std::uint64_t value) {
    char bytes[10];
    out.append(bytes, std::size_t(put_varint(bytes, value) - bytes));
}

int varint_size(std::uint64_t value) { return 1 + (63 - std::countl_zero(value | 1)) / 7; }

std::uint32_t checksum(std::string_view bytes) {
    return std::uint32_t(libdeflate_crc32(0, bytes.data(), bytes.size()));
}

// Makes room for `room` more bytes after the first `used` of the body.
char* room_for(std::string& body, std::size_t used, std::size_t room) {
    if (body.size() < used + room) body.resize(std::max(2 * body.size(), used + room));
    return body.data() + used;
}

// A key's groups and counts as gathered from its blocks: any groups, any counts.
struct ListedGroups {
    std::span<const int> groups;
    std::span<const std::uint64_t> counts;

    std::size_t size() const { return groups.size(); }
    std::uint64_t gap(std::size_t i) const {
        return std::uint64_t(groups[i] - (i == 0 ? 0 : groups[i - 1] + 1));
    }
    std::size_t gap_bytes() const {
        std::size_t bytes = 0;
        for (std::size_t i = 0; i < size(); ++i)
            bytes += gap(i) < 0x80 ? 1 : std::size_t(varint_size(gap(i)));  // one, nearly always
        return bytes;
    }
    char* put_bitmap(char* out, std::size_t bitmap_bytes) const {
        std::fill_n(out, bitmap_bytes, '\0');
        for (int group : groups) out[group / 8] = char(out[group / 8] | (1 << (group % 8)));
        return out + bitmap_bytes;
    }
    char* put_gaps(char* out) const {
        for (std::size_t i = 0; i < size(); ++i) out = put_varint(out, gap(i));
        return out;
    }
    char* put_counts(char* out) const {
        for (std::uint64_t count : counts) out = put_varint(out, count);
        return out;
    }
};

// A key whose counts all lie in groups 0-63, in one block without carries (nearly every key):
// its groups are the bits of `filled` and its counts those cells, so neither is gathered first,
// and every gap between its groups, below 64, takes one byte.
struct FilledBlock {
    std::uint64_t filled;
    const std::uint8_t* cells;

    std::size_t size() const { return std::size_t(std::popcount(filled)); }
    std::size_t gap_bytes() const { return size(); }
    char* put_bitmap(char* out, std::size_t bitmap_bytes) const {
        for (std::size_t i = 0; i < bitmap_bytes; ++i)
            out[i] = char(i < 8 ? (filled >> (8 * i)) & 0xff : 0);
        return out + bitmap_bytes;
    }
    char* put_gaps(char* out) const {
        int previous = -1;
        for (std::uint64_t rest = filled; rest != 0; rest &= rest - 1) {
            *out++ = char(std::countr_zero(rest) - previous - 1);
            previous = std::countr_zero(rest);
        }
        return out;
    }
    char* put_counts(char* out) const {
        for (std::uint64_t rest = filled; rest != 0; rest &= rest - 1)
            out = put_varint(out, cells[std::countr_zero(rest)]);
        return out;
    }
};

// Writes a key's entry at out: the key (whole, or as its step from the key before it), the number
// of its groups, the groups as gaps or as a bitmap where that is shorter, and their counts.
template <typename KeyGroups>
char* put_entry(char* out, std::uint64_t key_step, const KeyGroups& groups,
                std::size_t bitmap_bytes) {
    out = put_varint(out, key_step);
    const bool bitmap = bitmap_bytes < groups.gap_bytes();
    out = put_varint(out, (std::uint64_t(groups.size()) << 1) | (bitmap ? 1 : 0));
    out = bitmap ? groups.put_bitmap(out, bitmap_bytes) : groups.put_gaps(out);
    return groups.put_counts(out);
}

// The counts of the keys numbered [first, last) of the order: one block, header and body.
// Returns the block's bytes and adds its keys and cells to the totals.
std::string encode_block(const GroupedCounts::KeyOrder& order, std::size_t first, std::size_t last,
                         int groups, std::uint64_t& keys, std::uint64_t& cells) {
    // A key's groups and counts: room for every group, filled from the front.
    std::vector<int> key_groups(static_cast<std::size_t>(groups));
    std::vector<std::uint64_t> key_counts(static_cast<std::size_t>(groups));
    const std::size_t bitmap_bytes = (std::size_t(groups) + 7) / 8;
    // Bytes are written through a pointer into room made beforehand: appending a byte at a time
    // would cost as much as the rest of the encoding.
    std::string body;
    std::size_t used = 0;
    std::uint64_t previous_key = 0;
    // Counted here and handed out at the end: the callers' totals lie side by side, and adding
    // to them key by key from several threads would make the threads share a cache line.
    std::uint64_t block_keys = 0, block_cell_count = 0;
    constexpr std::size_t kAhead = 8;
    for (std::size_t number = first; number < last; ++number) {
        if (number + kAhead < last) order.prefetch(number + kAhead);
        std::size_t n = 0;
        std::uint64_t filled = 0;
        const std::uint8_t* key_cells = nullptr;
        const bool single_block = order.single_block(number, filled, key_cells);
        if (single_block) {
            n = std::size_t(std::popcount(filled));
        } else {
            order.for_each_of_key(number, [&](int group, std::uint64_t count) {
                key_groups[n] = group;
                key_counts[n++] = count;
            });
        }
        if (n == 0) continue;  // a key whose counts were all taken away
        char* out = room_for(body, used, 20 + bitmap_bytes + 20 * n);
        const std::uint64_t key = order.key(number);
        const std::uint64_t key_step = block_keys == 0 ? key : key - previous_key;
        out = single_block ? put_entry(out, key_step, FilledBlock{filled, key_cells}, bitmap_bytes)
                           : put_entry(out, key_step,
                                       ListedGroups{std::span(key_groups.data(), n),
                                                    std::span(key_counts.data(), n)},
                                       bitmap_bytes);
        previous_key = key;
        ++block_keys;
        used = std::size_t(out - body.data());
        block_cell_count += n;
    }
    body.resize(used);
    keys += block_keys;
    cells += block_cell_count;
    std::string block;
    if (block_keys == 0) return block;
    put_varint(block, block_keys);
    put_varint(block, body.size());
    std::uint32_t sum = checksum(body);
    for (int shift = 0; shift < 32; shift += 8) block += char((sum >> shift) & 0xff);
    return block + body;
}

std::string header_line(const Grouping& grouping, const GroupLabels* labels, std::uint64_t keys,
                        std::uint64_t cells, std::uint64_t blocks) {
    std::string line =
        fmt::format(R"({}"groupBy": "{}", "groups": {}, "keys": {}, "cells": {}, "blocks": {})",
                    kMagic, group_by_name(grouping.by), grouping.groups, keys, cells, blocks);
    if (labels) {
        line += ", \"labels\": ";
        line += labels_json(*labels).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    return line + "}\n";
}

// ---- reading ----

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view problem) {
    throw Error(fmt::format("damaged grouped count file {}: {}", path.string(), problem));
}

struct Header {
    Grouping grouping;
    std::optional<GroupLabels> labels;
    std::uint64_t keys = 0, cells = 0, blocks = 0;
    std::size_t size = 0;  // bytes, with its newline
};

std::uint64_t header_number(const std::filesystem::path& path, const nlohmann::json& header,
                            const char* name) {
    auto field = header.find(name);
    if (field == header.end() || !field->is_number_unsigned())
        fail(path, fmt::format("its header needs \"{}\", a non-negative integer.", name));
    return field->get<std::uint64_t>();
}

Header read_header(const std::filesystem::path& path, std::string_view bytes) {
    std::size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) fail(path, "its header line has no end.");
    auto json = nlohmann::json::parse(bytes.substr(0, newline), nullptr, false);
    if (json.is_discarded() || !json.is_object())
        fail(path, "its header line is not JSON (one object on the first line).");
    Header header;
    header.size = newline + 1;
    auto by = json.contains("groupBy") && json["groupBy"].is_string()
                  ? group_by_from_name(json["groupBy"].get<std::string>())
                  : std::nullopt;
    if (!by) fail(path, "\"groupBy\" must be \"game\" or \"test\".");
    std::uint64_t groups = header_number(path, json, "groups");
    if (groups < 1 || groups > std::uint64_t(kMaxGroups))
        fail(path, fmt::format("\"groups\" must be 1 to {}.", kMaxGroups));
    header.grouping = {*by, int(groups)};
    header.keys = header_number(path, json, "keys");
    header.cells = header_number(path, json, "cells");
    header.blocks = header_number(path, json, "blocks");
    if (json.contains("labels")) {
        header.labels = labels_from_json(json["labels"], path);
        if (header.labels->group_count() != header.grouping.groups) {
            fail(path,
                 fmt::format("\"labels\" name {} units of {} groups each, but the file has {} "
                             "groups.",
                             header.labels->units.size(), header.labels->groups_per_label,
                             header.grouping.groups));
        }
    }
    return header;
}

// Reads a varint at p, advancing it; false if it runs past end or beyond 64 bits.
bool get_varint(const unsigned char*& p, const unsigned char* end, std::uint64_t& value) {
    value = 0;
    for (int shift = 0; p != end && shift < 64; shift += 7) {
        std::uint64_t byte = *p++;
        if (shift == 63 && byte > 1) return false;
        value |= (byte & 0x7f) << shift;
        if (byte < 0x80) return true;
    }
    return false;
}

struct Block {
    std::size_t number = 0;
    std::uint64_t keys = 0;
    std::string_view body;
    std::uint32_t checksum = 0;
};

// The blocks after the header, found by their lengths alone.
std::vector<Block> find_blocks(const std::filesystem::path& path, const Header& header,
                               std::string_view bytes) {
    std::vector<Block> blocks;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data()) + header.size;
    const auto* end = reinterpret_cast<const unsigned char*>(bytes.data() + bytes.size());
    while (p != end) {
        Block block;
        block.number = blocks.size();
        std::uint64_t size = 0;
        if (blocks.size() == header.blocks)
            fail(path, fmt::format("bytes follow its {} blocks.", header.blocks));
        if (!get_varint(p, end, block.keys) || !get_varint(p, end, size) || end - p < 4)
            fail(path, fmt::format("block {} is cut short.", block.number));
        if (block.keys < 1 || block.keys > kMaxKeysPerBlock)
            fail(path, fmt::format("block {} claims {} keys.", block.number, block.keys));
        for (int i = 0; i < 4; ++i) block.checksum |= std::uint32_t(*p++) << (8 * i);
        if (size > std::uint64_t(end - p))
            fail(path, fmt::format("block {} is cut short.", block.number));
        block.body = std::string_view(reinterpret_cast<const char*>(p), std::size_t(size));
        p += size;
        blocks.push_back(block);
    }
    if (blocks.size() != header.blocks)
        fail(path, fmt::format("it has {} of its {} blocks: the file is cut short.", blocks.size(),
                               header.blocks));
    return blocks;
}

// What decoding some blocks found, for the checks across blocks.
struct Decoded {
    std::uint64_t keys = 0, cells = 0;
    std::uint64_t first_key = 0, last_key = 0;
};

// Calls deliver(packed key, groups, counts) for each key of the block; group_list and
// count_list have room for every group.
template <typename Deliver>
void decode_block(const std::filesystem::path& path, const Header& header, const Block& block,
                  std::vector<int>& group_list, std::vector<std::int64_t>& count_list,
                  Decoded& decoded, Deliver& deliver) {
    if (checksum(block.body) != block.checksum)
        fail(path, fmt::format("block {} does not match its checksum.", block.number));
    auto problem = [&](std::string_view what) {
        fail(path, fmt::format("block {}: {}", block.number, what));
    };
    const auto* p = reinterpret_cast<const unsigned char*>(block.body.data());
    const auto* end = p + block.body.size();
    const auto groups = std::uint64_t(header.grouping.groups);
    const std::size_t bitmap_bytes = (std::size_t(groups) + 7) / 8;
    std::uint64_t key = 0;
    for (std::uint64_t k = 0; k < block.keys; ++k) {
        std::uint64_t step = 0, shape = 0;
        if (!get_varint(p, end, step) || !get_varint(p, end, shape)) problem("a key is cut short.");
        if (k > 0 && step == 0) problem("its keys are not in ascending order.");
        if (step >= kKeyLimit - key) problem("a key is beyond the keys of positions.");
        key += step;
        std::uint64_t n = shape >> 1;
        if (n < 1 || n > groups) problem("a key has no groups or more than the file.");
        // The key's groups (as a bitmap or as gaps), then their counts.
        std::size_t listed = 0;
        if (shape & 1) {
            if (std::uint64_t(end - p) < bitmap_bytes) problem("a key is cut short.");
            for (std::size_t byte = 0; byte < bitmap_bytes; ++byte) {
                for (unsigned bits = p[byte]; bits != 0; bits &= bits - 1) {
                    std::uint64_t group = byte * 8 + std::uint64_t(std::countr_zero(bits));
                    if (group >= groups) problem("a key's group is beyond the groups.");
                    if (listed == n) problem("a key's bitmap has more groups than it says.");
                    group_list[listed++] = int(group);
                }
            }
            p += bitmap_bytes;
            if (listed != n) problem("a key's bitmap has fewer groups than it says.");
        } else {
            std::uint64_t group = 0;
            for (; listed < n; ++listed, ++group) {
                std::uint64_t gap = 0;
                if (!get_varint(p, end, gap)) problem("a key is cut short.");
                if (gap >= groups - group) problem("a key's group is beyond the groups.");
                group += gap;
                group_list[listed] = int(group);
            }
        }
        for (std::size_t i = 0; i < listed; ++i) {
            std::uint64_t count = 0;
            if (!get_varint(p, end, count)) problem("a count is cut short.");
            if (count < 1 || count > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
                problem("a count is 0 or beyond 2^63 - 1.");
            count_list[i] = std::int64_t(count);
        }
        deliver(key, std::span<const int>(group_list.data(), listed),
                std::span<const std::int64_t>(count_list.data(), listed));
        if (k == 0) decoded.first_key = key;
        decoded.cells += n;
    }
    if (p != end) problem("it holds more bytes than its keys.");
    decoded.last_key = key;
    decoded.keys += block.keys;
}

// Decodes the blocks in order, checking that keys ascend across them.
template <typename Deliver>
Decoded decode_blocks(const std::filesystem::path& path, const Header& header,
                      std::span<const Block> blocks, Deliver&& deliver) {
    Decoded all;
    std::vector<int> group_list(std::size_t(header.grouping.groups));
    std::vector<std::int64_t> count_list(group_list.size());
    for (const Block& block : blocks) {
        Decoded one;
        decode_block(path, header, block, group_list, count_list, one, deliver);
        if (all.keys > 0 && one.first_key <= all.last_key)
            fail(path,
                 fmt::format("block {} does not begin after the key before it.", block.number));
        if (all.keys == 0) all.first_key = one.first_key;
        all.last_key = one.last_key;
        all.keys += one.keys;
        all.cells += one.cells;
    }
    return all;
}

void check_totals(const std::filesystem::path& path, const Header& header, const Decoded& all) {
    if (all.keys != header.keys || all.cells != header.cells) {
        fail(path, fmt::format("it holds {} keys and {} counts, but its header says {} and {}.",
                               all.keys, all.cells, header.keys, header.cells));
    }
}

CountFileReport report_of(Header& header) {
    CountFileReport report;
    report.grouping = header.grouping;
    report.labels = std::move(header.labels);
    return report;
}

}  // namespace

void write(const GroupedCounts& counts, const GroupLabels* labels, int threads,
           const std::function<void(std::string_view)>& write) {
    const Grouping& grouping = counts.grouping();
    if (labels && labels->group_count() != grouping.groups)
        throw std::invalid_argument("grouped count file: the labels do not name every group");
    auto order = counts.in_key_order(threads);
    std::size_t block_count = (order.keys() + kKeysPerBlock - 1) / kKeysPerBlock;
    std::vector<std::string> blocks(block_count);
    std::vector<std::uint64_t> keys(block_count), cells(block_count);
    util::parallel_for(block_count, threads, [&](std::size_t, std::size_t i) {
        blocks[i] =
            encode_block(order, i * kKeysPerBlock, std::min(order.keys(), (i + 1) * kKeysPerBlock),
                         grouping.groups, keys[i], cells[i]);
    });
    // A block whose keys all lost their counts is left out.
    std::erase_if(blocks, [](const std::string& block) { return block.empty(); });
    std::uint64_t key_total = 0, cell_total = 0;
    for (std::size_t i = 0; i < block_count; ++i) {
        key_total += keys[i];
        cell_total += cells[i];
    }
    write(header_line(grouping, labels, key_total, cell_total, blocks.size()));
    for (const std::string& block : blocks) write(block);
}

CountFileReport read(const std::filesystem::path& path, std::string_view bytes,
                     CountTarget& target) {
    Header header = read_header(path, bytes);
    auto blocks = find_blocks(path, header, bytes);
    // Two pieces of about equal bytes, each into a target of its own, merged in order.
    std::size_t split = blocks.size();
    if (bytes.size() >= kPieceBytes && blocks.size() >= 2) {
        std::size_t half = 0;
        for (split = 0; split < blocks.size() && half < bytes.size() / 2; ++split)
            half += blocks[split].body.size();
    }
    std::span<const Block> all_blocks(blocks);
    std::vector<std::span<const Block>> pieces{all_blocks.subspan(0, split)};
    if (split < blocks.size()) pieces.push_back(all_blocks.subspan(split));
    std::vector<std::unique_ptr<CountTarget>> targets;
    for (std::size_t i = 1; i < pieces.size(); ++i) targets.push_back(target.blank_copy());
    std::vector<Decoded> decoded(pieces.size());
    util::parallel_for(pieces.size(), int(pieces.size()), [&](std::size_t, std::size_t i) {
        CountTarget& into = i == 0 ? target : *targets[i - 1];
        decoded[i] = decode_blocks(path, header, pieces[i],
                                   [&into](std::uint64_t key, std::span<const int> groups,
                                           std::span<const std::int64_t> counts) {
                                       into.add_to_groups(unpack_key(key), groups, counts);
                                   });
    });
    Decoded all = decoded[0];
    for (std::size_t i = 1; i < decoded.size(); ++i) {
        if (decoded[i].keys > 0 && all.keys > 0 && decoded[i].first_key <= all.last_key)
            fail(path, "its blocks' keys do not ascend.");
        all.last_key = decoded[i].last_key;
        all.keys += decoded[i].keys;
        all.cells += decoded[i].cells;
    }
    check_totals(path, header, all);
    for (const auto& part : targets) target.merge(*part);
    return report_of(header);
}

}  // namespace wdl::counts::compact
