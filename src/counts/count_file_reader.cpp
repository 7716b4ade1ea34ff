#include <fcntl.h>
#include <fmt/format.h>
#include <simdjson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "compact_grouped_file.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/counts/group_labels.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/io/block_reader.hpp"
#include "wdl/util/checked_sum.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::counts {

namespace {

namespace od = simdjson::ondemand;

[[noreturn]] void fail_unreadable(const std::filesystem::path& path) {
    throw Error(fmt::format("cannot read the count file {}: {}", path.string(),
                            util::unreadable_reason(path)));
}

// The file's bytes for simdjson, which may read SIMDJSON_PADDING bytes past the end. A
// memory-mapped file avoids copying large files when its last page has room for the padding
// (the kernel fills it with zeros); otherwise the bytes are read into a padded copy. A .gz or
// .zst file is decompressed into the copy.
class JsonText {
  public:
    explicit JsonText(const std::filesystem::path& path) {
        std::error_code missing;
        if (!std::filesystem::exists(path, missing)) fail_unreadable(path);
        if (io::compression_for(path) != io::Compression::None) {
            decompress(path);
        } else if (!map(path)) {
            if (simdjson::padded_string::load(path.string()).get(copy_)) fail_unreadable(path);
        }
        if (!map_) view_ = copy_;
    }
    ~JsonText() {
        if (map_) ::munmap(map_, map_size_);
    }
    JsonText(const JsonText&) = delete;
    JsonText& operator=(const JsonText&) = delete;

    simdjson::padded_string_view view() const { return view_; }

    // Lets the bytes [offset, offset + count) be changed: a mapped file's pages are private
    // copies once written. Returns the first byte.
    char* make_writable(std::size_t offset, std::size_t count) {
        char* data = const_cast<char*>(view_.data());
        if (map_) {
            std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
            std::size_t first = offset / page * page;
            if (::mprotect(static_cast<char*>(map_) + first, offset + count - first,
                           PROT_READ | PROT_WRITE) != 0)
                throw Error("cannot change the mapping of a count file");
        }
        return data + offset;
    }

  private:
    bool map(const std::filesystem::path& path) {
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat info {};
        if (fd >= 0 && ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
            std::size_t size = std::size_t(info.st_size);
            std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
            std::size_t slack = (page - size % page) % page;
            if (slack >= simdjson::SIMDJSON_PADDING) {
                void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
                if (map != MAP_FAILED) {
                    map_ = map;
                    map_size_ = size;
                    view_ = simdjson::padded_string_view(static_cast<const char*>(map), size,
                                                         size + slack);
                }
            }
        }
        if (fd >= 0) ::close(fd);
        return map_ != nullptr;
    }

    void decompress(const std::filesystem::path& path) {
        auto reader = io::BlockReader::open(path);
        std::string text;
        while (reader->read_block(text) > 0) {
        }
        if (!reader->damage().empty())
            throw Error(fmt::format("damaged count file {}: {}", path.string(), reader->damage()));
        copy_ = simdjson::padded_string(text);
    }

    void* map_ = nullptr;
    std::size_t map_size_ = 0;
    simdjson::padded_string copy_;
    simdjson::padded_string_view view_;
};

std::string_view bytes_of(const JsonText& text) { return {text.view().data(), text.view().size()}; }

// The key's characters as they stand in the file, without unescaping into simdjson's string
// buffer (which costs a copy per key). The parser has found the closing quote already; a key
// with escapes must be unescaped by the caller.
std::string_view raw_key(od::field& field, const char* text_end) {
    const char* start = field.key().raw();
    const void* quote = std::memchr(start, '"', std::size_t(text_end - start));
    return {start, std::size_t(static_cast<const char*>(quote ? quote : text_end) - start)};
}

// Reads a decimal integer of at most 9 digits with an optional '-', in the scanners' spelling
// only: no leading zeros and no "-0", so that equal keys are equal text.
bool read_small_int(const char*& p, const char* end, int& value) {
    bool negative = p != end && *p == '-';
    if (negative) ++p;
    const char* digits = p;
    int result = 0;
    while (p != end && *p >= '0' && *p <= '9' && p - digits < 9)
        result = result * 10 + (*p++ - '0');
    if (p == digits || (*digits == '0' && (p - digits > 1 || negative))) return false;
    value = negative ? -result : result;
    return true;
}

// The scanners' exact spelling "('W', 12, 62, 35)", parsed without the general parser's
// tolerance for spacing and quotes (the hot path of loading; anything else falls back).
std::optional<PositionKey> parse_canonical_key(std::string_view text) {
    const char* p = text.data();
    const char* end = p + text.size();
    if (text.size() < 14 || p[0] != '(' || p[1] != '\'' || p[3] != '\'' || p[4] != ',' ||
        p[5] != ' ' || end[-1] != ')') {
        return std::nullopt;
    }
    auto outcome = outcome_from_letter(p[2]);
    if (!outcome) return std::nullopt;
    PositionKey key;
    key.result = *outcome;
    p += 6;
    --end;
    if (!read_small_int(p, end, key.move) || end - p < 2 || p[0] != ',' || p[1] != ' ') {
        return std::nullopt;
    }
    p += 2;
    if (!read_small_int(p, end, key.material) || end - p < 2 || p[0] != ',' || p[1] != ' ') {
        return std::nullopt;
    }
    p += 2;
    if (!read_small_int(p, end, key.eval) || p != end) return std::nullopt;
    return key;
}

[[noreturn]] void fail_json(const std::filesystem::path& path, simdjson::error_code error) {
    throw Error(
        fmt::format("malformed JSON in {}: {}", path.string(), simdjson::error_message(error)));
}

// A document that cannot be read as a JSON object: malformed JSON if it starts as one, else
// what the file looks like instead.
[[noreturn]] void fail_document(const std::filesystem::path& path, std::string_view text,
                                simdjson::error_code error) {
    constexpr std::string_view kSpace = " \t\r\n";
    std::size_t first = std::min(text.find_first_not_of(kSpace), text.size());
    if (first < text.size() && text[first] == '{') fail_json(path, error);
    std::string_view start = text.substr(first, 40);
    start = start.substr(0, start.find_first_of("\r\n"));
    if (start.size() > 1 && start[0] == '[' && std::isupper(static_cast<unsigned char>(start[1]))) {
        throw Error(
            fmt::format("{} holds PGN games, not counts: scoreWDLstat --file {} counts "
                        "them into a count file",
                        path.string(), path.string()));
    }
    std::string shown;
    for (char c : start) shown += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
    throw Error(
        fmt::format("{} is no count file: it {}, where a count file (which "
                    "scoreWDLstat writes) is a JSON object of counts",
                    path.string(), shown.empty() ? "is empty" : "starts with \"" + shown + "\""));
}

// The count of one key: a non-negative integer of at most 64 bits (an integral float such as
// 3.0 is accepted).
std::int64_t read_count(const std::filesystem::path& path, std::string_view key, od::value value) {
    auto token = [&value] {
        std::string_view text = value.raw_json_token();
        return text.substr(0, text.find_last_not_of(" \t\r\n") + 1);
    };
    auto fail = [&](std::string_view problem) {
        throw Error(fmt::format("{}: the count of key \"{}\" {} ({}).", path.string(), key, problem,
                                token()));
    };
    std::int64_t count = 0;
    auto error = value.get_int64().get(count);
    if (error == simdjson::NUMBER_OUT_OF_RANGE) {
        fail(token().starts_with('-') ? "is negative" : "is out of range");
    } else if (error == simdjson::INCORRECT_TYPE || error == simdjson::NUMBER_ERROR) {
        double number = 0;
        if (value.get_double().get(number) || std::floor(number) != number) {
            fail("is not an integer");
        }
        // 2^63 is the first integral double past the int64 range.
        if (number >= 0x1p63) fail("is out of range");
        if (number < 0) fail("is negative");
        count = std::int64_t(number);
    } else if (error) {
        fail_json(path, error);
    }
    if (count < 0) fail("is negative");
    return count;
}

// The original scanner writes `null` when it counted no position.
bool is_null_document(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n";
    std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return false;
    return text.substr(first, text.find_last_not_of(kSpace) + 1 - first) == "null";
}

// The group of the keys of a plain file, for the entry functions and sinks below.
constexpr int kPlainGroup = -1;

// One entry of a count file, identified as Python's json.load identifies it: keys in the
// scanners' spelling by their packed value, other spellings by their text (in Python
// "('W', 1, 2, 3)" and "('W', 1, 2, +3)" are different JSON keys that both count).
struct FileEntry {
    std::uint64_t packed = 0;  // when canonical
    std::string text;          // when not
    PositionKey key;
    std::int64_t count = 0;
    bool operator<(const FileEntry& other) const {
        return std::tie(text, packed) < std::tie(other.text, other.packed);
    }
    bool same_key(const FileEntry& other) const {
        return packed == other.packed && text == other.text;
    }
};

// For a file whose keys were all sent to the sink although some repeat: Python keeps a
// repeated key's last count, so the sink gets (last - sum of all) of each such key. Returns
// the repetitions, spelled as in the file.
std::vector<std::string> correct_repeated_keys(std::vector<FileEntry> entries,
                                               const GroupedCountSink& sink) {
    std::stable_sort(entries.begin(), entries.end());
    std::vector<std::string> repeated;
    for (std::size_t first = 0, last = 0; first < entries.size(); first = last) {
        std::int64_t sum = 0;
        for (last = first; last < entries.size() && entries[last].same_key(entries[first]); ++last)
            sum = util::checked_sum(sum, entries[last].count);
        if (last - first == 1) continue;
        const FileEntry& final_entry = entries[last - 1];
        sink(kPlainGroup, final_entry.key, final_entry.count - sum);
        for (std::size_t i = first + 1; i < last; ++i)
            repeated.push_back(entries[i].text.empty() ? format_key(entries[i].key)
                                                       : entries[i].text);
    }
    return repeated;
}

// Calls entry(group, key text, key, canonical, count) for the field, a key and its count.
template <typename EntryFunction>
void read_entry(const std::filesystem::path& path, od::field& field, std::string_view key_text,
                int group, EntryFunction&& entry) {
    if (key_text.find('\\') != std::string_view::npos) {
        if (auto error = field.unescaped_key().get(key_text)) fail_json(path, error);
    }
    auto key = parse_canonical_key(key_text);
    bool canonical = key && packable(*key);
    if (!canonical) key = parse_key(key_text);
    if (!key) {
        throw Error(fmt::format("{}: key \"{}\" is not of the form ('W', move, material, eval).",
                                path.string(), key_text));
    }
    entry(group, key_text, *key, canonical, read_count(path, key_text, field.value()));
}

// The fields of a grouped count file (docs/formats.md) as found.
struct GroupedHeader {
    std::optional<std::string> format, group_by;
    std::optional<std::int64_t> version, groups;
    std::optional<std::vector<PositionKey>> keys;
    std::optional<int> count_lists;
    std::optional<GroupLabels> labels;

    static bool is_field(std::string_view name) {
        return name == "format" || name == "version" || name == "groupBy" || name == "groups" ||
               name == "keys" || name == "counts" || name == "labels";
    }
    bool seen() const {
        return format || group_by || version || groups || keys || count_lists || labels;
    }
};

[[noreturn]] void fail_grouped(const std::filesystem::path& path, std::string_view problem) {
    throw Error(fmt::format("{}: {}", path.string(), problem));
}

std::string header_string(const std::filesystem::path& path, std::string_view name,
                          od::value value) {
    std::string_view text;
    if (value.get_string().get(text))
        fail_grouped(path, fmt::format("\"{}\" of a grouped count file must be a string.", name));
    return std::string(text);
}

std::int64_t header_integer(const std::filesystem::path& path, std::string_view name,
                            od::value value) {
    std::int64_t number = 0;
    if (value.get_int64().get(number))
        fail_grouped(path, fmt::format("\"{}\" of a grouped count file must be an integer.", name));
    return number;
}

// The "keys" of a grouped file: a list of keys spelled as in plain count files.
std::vector<PositionKey> read_key_list(const std::filesystem::path& path, od::value value) {
    od::array array;
    if (value.get_array().get(array))
        fail_grouped(path, "\"keys\" of a grouped count file must be a list of strings.");
    std::vector<PositionKey> keys;
    for (auto element : array) {
        std::string_view text;
        if (auto error = element.get_string().get(text)) {
            if (error != simdjson::INCORRECT_TYPE) fail_json(path, error);
            fail_grouped(path, fmt::format("entry {} of \"keys\" is not a string.", keys.size()));
        }
        auto key = parse_canonical_key(text);
        if (!key || !packable(*key)) key = parse_key(text);
        if (!key) {
            fail_grouped(path, fmt::format("key \"{}\" is not of the form ('W', move, material, "
                                           "eval).",
                                           text));
        }
        keys.push_back(*key);
    }
    return keys;
}

// The "counts" of a grouped file: one list per group of (key number, count) pairs, each pair
// passed to deliver(group, key number, count). Returns the number of lists.
template <typename Deliver>
int read_count_lists(const std::filesystem::path& path, od::value value, Deliver&& deliver) {
    od::array lists;
    if (value.get_array().get(lists))
        fail_grouped(path, "\"counts\" of a grouped count file must be a list of lists.");
    int group = 0;
    for (auto list_result : lists) {
        if (group == kMaxGroups)
            fail_grouped(path, fmt::format("more than {} groups.", kMaxGroups));
        od::array list;
        if (auto error = list_result.get_array().get(list)) {
            if (error != simdjson::INCORRECT_TYPE) fail_json(path, error);
            fail_grouped(path, fmt::format("entry {} of \"counts\" is not a list.", group));
        }
        std::uint64_t index = 0;
        bool have_index = false;
        for (auto number_result : list) {
            std::uint64_t number = 0;
            if (auto error = number_result.get_uint64().get(number)) {
                if (error != simdjson::INCORRECT_TYPE && error != simdjson::NUMBER_ERROR &&
                    error != simdjson::NUMBER_OUT_OF_RANGE)
                    fail_json(path, error);
                fail_grouped(path, fmt::format("entry {} of \"counts\" must hold non-negative "
                                               "integers (key number, count, ...).",
                                               group));
            }
            if (have_index) {
                if (number > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
                    fail_grouped(path, fmt::format("a count of group {} is out of range.", group));
                deliver(group, index, std::int64_t(number));
            }
            index = number;
            have_index = !have_index;
        }
        if (have_index) {
            fail_grouped(path, fmt::format("entry {} of \"counts\" ends with a key number "
                                           "without its count.",
                                           group));
        }
        ++group;
    }
    return group;
}

// The grouping a grouped file's header declares, checked against its keys and counts.
Grouping checked_grouping(const std::filesystem::path& path, const GroupedHeader& header) {
    if (header.format != kGroupedFormat)
        fail_grouped(path,
                     fmt::format("a grouped count file needs \"format\": \"{}\".", kGroupedFormat));
    if (header.version != kJsonGroupedFormatVersion) {
        fail_grouped(path, fmt::format("version {} of grouped count files is not supported in "
                                       "JSON (JSON ones are version {}; version {} begins with the "
                                       "line '{}...').",
                                       header.version ? std::to_string(*header.version) : "(none)",
                                       kJsonGroupedFormatVersion, kCompactGroupedFormatVersion,
                                       compact::kMagic));
    }
    auto by = header.group_by ? group_by_from_name(*header.group_by) : std::nullopt;
    if (!by)
        fail_grouped(path, "\"groupBy\" of a grouped count file must be \"game\" or \"test\".");
    if (!header.keys) fail_grouped(path, "a grouped count file needs \"keys\", a list of keys.");
    if (!header.count_lists)
        fail_grouped(path, "a grouped count file needs \"counts\", a list of lists.");
    if (!header.groups || *header.groups < 1 || *header.groups > kMaxGroups ||
        *header.groups != *header.count_lists) {
        fail_grouped(path, fmt::format("\"groups\" must be the number of lists in \"counts\" "
                                       "({}), at most {}.",
                                       *header.count_lists, kMaxGroups));
    }
    if (header.labels && header.labels->group_count() != *header.groups) {
        fail_grouped(path, fmt::format("\"labels\" name {} units of {} groups each, but the file "
                                       "has {} groups.",
                                       header.labels->units.size(), header.labels->groups_per_label,
                                       *header.groups));
    }
    return {*by, int(*header.groups)};
}

// The "labels" of a grouped file (a small part of it): read as a JSON document of its own.
GroupLabels read_labels(const std::filesystem::path& path, od::value value) {
    od::object object;
    if (value.get_object().get(object))
        fail_grouped(path, "\"labels\" must be an object {\"groupsPerLabel\", \"units\"}.");
    std::string_view raw;
    if (auto error = object.raw_json().get(raw)) fail_json(path, error);
    auto json = nlohmann::json::parse(raw, nullptr, false);
    if (json.is_discarded()) fail_grouped(path, "\"labels\" is not valid JSON.");
    return labels_from_json(json, path);
}

// What a file's header says of its groups: nothing for a plain file.
struct FileGroups {
    std::optional<Grouping> grouping;
    std::optional<GroupLabels> labels;
};

// Calls entry(group, key text, key, canonical, count) for every key of the document in
// order: the keys of a plain file with group kPlainGroup (and their text), the counts of a
// grouped file with their group (and no text). Returns the grouping (and labels) of a grouped
// file.
template <typename EntryFunction>
FileGroups read_entries(const std::filesystem::path& path, simdjson::padded_string_view text,
                        EntryFunction&& entry) {
    const char* text_end = text.data() + text.size();
    od::parser parser;
    od::document document;
    if (auto error = parser.iterate(text).get(document))
        fail_document(path, {text.data(), text.size()}, error);
    od::object object;
    if (auto error = document.get_object().get(object))
        fail_document(path, {text.data(), text.size()}, error);
    GroupedHeader header;
    bool plain_keys = false;
    // Counts found before their keys (a reordered file) wait for them.
    std::vector<std::tuple<int, std::uint64_t, std::int64_t>> waiting;
    auto deliver = [&](int group, std::uint64_t index, std::int64_t count) {
        if (!header.keys) {
            waiting.emplace_back(group, index, count);
            return;
        }
        if (index >= header.keys->size()) {
            fail_grouped(path, fmt::format("entry {} of \"counts\" names key number {}, but "
                                           "\"keys\" has {}.",
                                           group, index, header.keys->size()));
        }
        entry(group, std::string_view(), (*header.keys)[index], true, count);
    };
    for (auto field_result : object) {
        od::field field;
        if (auto error = std::move(field_result).get(field)) fail_json(path, error);
        std::string_view name = raw_key(field, text_end);
        // Keys are at least 14 characters long: the header's names are told apart by length.
        if (name.size() > 7 || !GroupedHeader::is_field(name)) {
            plain_keys = true;
            read_entry(path, field, name, kPlainGroup, entry);
        } else if (name == "keys") {
            header.keys = read_key_list(path, field.value());
        } else if (name == "counts") {
            header.count_lists = read_count_lists(path, field.value(), deliver);
        } else if (name == "labels") {
            header.labels = read_labels(path, field.value());
        } else if (name == "format" || name == "groupBy") {
            (name == "format" ? header.format : header.group_by) =
                header_string(path, name, field.value());
        } else {
            (name == "version" ? header.version : header.groups) =
                header_integer(path, name, field.value());
        }
    }
    // Past the end of the document, asking for the current location is an error.
    if (!document.current_location().error()) {
        throw Error(fmt::format("malformed JSON in {}: trailing content", path.string()));
    }
    if (!header.seen()) return {};
    if (plain_keys) fail_grouped(path, "a grouped count file has no keys beside its header.");
    Grouping grouping = checked_grouping(path, header);
    for (auto [group, index, count] : waiting) deliver(group, index, count);
    return {grouping, std::move(header.labels)};
}

// Whether keys come in strictly increasing order, as scanners write them: then none repeats.
struct KeyOrder {
    bool increasing = true;
    std::string first, last;

    void see(std::string_view key) {
        if (first.empty()) first.assign(key);
        increasing = increasing && last < key;
        last.assign(key);
    }
};

// read_count_file on a file already opened; the sink gets kPlainGroup for a plain file's keys.
CountFileReport read_counts(const std::filesystem::path& path, const JsonText& text,
                            const GroupedCountSink& sink) {
    CountFileReport report;
    if (is_null_document(text.view())) return report;
    // One comparison per key of a plain file proves that none repeats, and the counts go
    // straight to the sink. Only a file out of order is read once more to find its repeated
    // keys. (The counts of a grouped file add up: it has no repeated keys to correct.)
    KeyOrder order;
    auto groups = read_entries(path, text.view(),
                               [&](int group, std::string_view key_text, const PositionKey& key,
                                   bool, std::int64_t count) {
                                   if (group == kPlainGroup) order.see(key_text);
                                   sink(group, key, count);
                               });
    report.grouping = groups.grouping;
    report.labels = std::move(groups.labels);
    if (order.increasing) return report;
    std::vector<FileEntry> entries;
    read_entries(
        path, text.view(),
        [&](int, std::string_view key_text, const PositionKey& key, bool canonical,
            std::int64_t count) {
            entries.push_back({canonical ? pack_key(key) : 0,
                               canonical ? std::string() : std::string(key_text), key, count});
        });
    report.repeated_keys = correct_repeated_keys(std::move(entries), sink);
    return report;
}

}  // namespace

namespace {

// Files at least this large are read in two halves at once.
constexpr std::size_t kSplitBytes = std::size_t{8} << 20;

// Where a count object can be cut in two: a ',' between two entries followed by a blank, near
// the middle. The ',' then closes the first half ('}') and the blank opens the second ('{').
// A ',' followed by blanks and '"' lies between entries when no key holds a '"'; if one does,
// a half fails to parse and the file is read in one piece.
std::optional<std::size_t> find_split(std::string_view text) {
    for (std::size_t comma = text.find(',', text.size() / 2); comma != std::string_view::npos;
         comma = text.find(',', comma + 1)) {
        std::size_t next = text.find_first_not_of(" \t\r\n", comma + 1);
        if (next == std::string_view::npos) return std::nullopt;
        if (next > comma + 1 && text[next] == '"') return comma;
    }
    return std::nullopt;
}

// The counts of one half into its own target, and whether its keys were in order.
struct HalfCounts {
    std::unique_ptr<CountTarget> target;
    KeyOrder order;
    std::exception_ptr error;
};

void count_half(const std::filesystem::path& path, simdjson::padded_string_view text,
                HalfCounts& half) {
    try {
        auto groups = read_entries(
            path, text,
            [&](int, std::string_view key_text, const PositionKey& key, bool, std::int64_t count) {
                half.order.see(key_text);
                half.target->add(key, count);
            });
        if (groups.grouping) half.order.increasing = false;  // not the half of a plain file
    } catch (...) {
        half.error = std::current_exception();
    }
}

// The scanners' own layout (count_file_text): "{", then one entry `  "KEY": COUNT` a line,
// the lines joined by ",", then "}". A file in exactly this layout, with keys in their canonical
// spelling and strictly increasing and counts in plain digits, is read without a JSON parser,
// in two pieces at once when large: the common case, at the speed of the page cache. At the
// first deviation the piece gives up, and the file is read by the general readers below.
struct LayoutPiece {
    std::string_view entries;  // whole entries, joined by ",\n"
    std::unique_ptr<CountTarget> target;
    std::string_view first_key, last_key;
    bool read = false;
};

// Up to 18 digits, no leading zero: a count that fits 64 bits, spelled as the scanners do.
bool read_layout_count(const char*& p, const char* end, std::int64_t& count) {
    const char* digits = p;
    std::int64_t value = 0;
    while (p != end && *p >= '0' && *p <= '9' && p - digits < 18) value = value * 10 + (*p++ - '0');
    if (p == digits || (*digits == '0' && p - digits > 1)) return false;
    count = value;
    return true;
}

void read_layout_piece(LayoutPiece& piece) {
    const char* p = piece.entries.data();
    const char* end = p + piece.entries.size();
    std::string_view previous;
    while (true) {
        if (end - p < 3 || p[0] != ' ' || p[1] != ' ' || p[2] != '"') return;
        p += 3;
        const auto* quote = static_cast<const char*>(std::memchr(p, '"', std::size_t(end - p)));
        if (!quote) return;
        std::string_view key_text(p, std::size_t(quote - p));
        auto key = parse_canonical_key(key_text);
        if (!key || !packable(*key) || !(previous < key_text)) return;
        previous = key_text;
        p = quote + 1;
        std::int64_t count = 0;
        if (end - p < 3 || p[0] != ':' || p[1] != ' ') return;
        p += 2;
        if (!read_layout_count(p, end, count)) return;
        piece.target->add(*key, count);
        if (piece.first_key.empty()) piece.first_key = key_text;
        if (p == end) break;
        if (end - p < 2 || p[0] != ',' || p[1] != '\n') return;
        p += 2;
    }
    piece.last_key = previous;
    piece.read = true;
}

// Reads a file in the scanners' layout into the target; false (nothing added) for any other.
bool add_scanner_layout(std::string_view text, CountTarget& target) {
    constexpr std::string_view kOpen = "{\n", kClose = "\n}";
    if (text.ends_with('\n')) text.remove_suffix(1);
    if (!text.starts_with(kOpen) || !text.ends_with(kClose) ||
        text.size() <= kOpen.size() + kClose.size()) {
        return false;
    }
    std::string_view entries =
        text.substr(kOpen.size(), text.size() - kOpen.size() - kClose.size());
    // Two pieces split between two entries near the middle (no canonical key holds a '"').
    std::size_t split = std::string_view::npos;
    if (entries.size() >= kSplitBytes) split = entries.find(",\n  \"", entries.size() / 2);
    std::vector<LayoutPiece> pieces(split == std::string_view::npos ? 1 : 2);
    pieces[0].entries = entries.substr(0, split);
    if (pieces.size() == 2) pieces[1].entries = entries.substr(split + 2);
    for (LayoutPiece& piece : pieces) piece.target = target.blank_copy();
    util::parallel_for(pieces.size(), int(pieces.size()),
                       [&pieces](std::size_t, std::size_t i) { read_layout_piece(pieces[i]); });
    for (const LayoutPiece& piece : pieces)
        if (!piece.read) return false;
    if (pieces.size() == 2 && !(pieces[0].last_key < pieces[1].first_key)) return false;
    for (const LayoutPiece& piece : pieces) target.merge(*piece.target);
    return true;
}

// Whether the document is an object whose first key is a position key: a plain count file,
// not a grouped one (whose halves would not be count objects).
bool begins_with_position_key(std::string_view text) {
    std::size_t brace = text.find_first_not_of(" \t\r\n");
    if (brace == std::string_view::npos || text[brace] != '{') return false;
    std::size_t quote = text.find_first_not_of(" \t\r\n", brace + 1);
    if (quote == std::string_view::npos || text[quote] != '"') return false;
    std::size_t first = text.find_first_not_of(" \t", quote + 1);
    return first != std::string_view::npos && text[first] == '(';
}

// Reads a large plain file in two halves on two threads into targets of their own; false
// (nothing added) if the file is not plain or cannot be split, a half does not parse, or its
// keys are not in order.
bool add_in_halves(const std::filesystem::path& path, JsonText& text, CountTarget& target) {
    std::string_view whole(text.view().data(), text.view().size());
    if (!begins_with_position_key(whole)) return false;
    auto split = find_split(whole);
    if (!split) return false;
    char* cut = text.make_writable(*split, 2);
    const char comma = cut[0], blank = cut[1];
    cut[0] = '}';
    cut[1] = '{';
    std::size_t capacity = text.view().capacity();
    simdjson::padded_string_view first(whole.data(), *split + 1, capacity);
    simdjson::padded_string_view second(cut + 1, whole.size() - *split - 1, capacity - *split - 1);
    HalfCounts halves[2];
    halves[0].target = target.blank_copy();
    halves[1].target = target.blank_copy();
    std::thread helper(count_half, std::cref(path), second, std::ref(halves[1]));
    count_half(path, first, halves[0]);
    helper.join();
    cut[0] = comma;
    cut[1] = blank;
    for (const HalfCounts& half : halves)
        if (half.error || !half.order.increasing) return false;
    if (!(halves[0].order.last < halves[1].order.first)) return false;
    target.merge(*halves[0].target);
    target.merge(*halves[1].target);
    return true;
}

}  // namespace

// The ways one plain format is read, fastest first (scripts/bench_count_reader.sh, figures in
// docs/benchmarks.md: 1e7 positions load in 0.08 s, 0.16 s and 0.27 s): the scanners' own
// layout by a strict parser, any other large file in order in two simdjson halves at once, and
// the rest (small, out of order, grouped version 1, faulty: the path that words every error)
// in one piece. Version 2 of grouped files is a format of its own.
CountFileReport read_count_file(const std::filesystem::path& path, CountTarget& target) {
    JsonText text(path);
    if (begins_as_human_counts(bytes_of(text))) {
        throw Error(fmt::format(
            "{} is a human-games count file (scoreWDLstat --human: ratings and speed classes in "
            "its keys), not a plain or grouped count file: the rating-aware fit reads it "
            "(docs/human-games.md)",
            path.string()));
    }
    if (compact::is_compact(bytes_of(text))) return compact::read(path, bytes_of(text), target);
    if (add_scanner_layout(bytes_of(text), target)) return {};
    bool large = text.view().size() >= kSplitBytes && !is_null_document(text.view());
    if (large && add_in_halves(path, text, target)) return {};
    // Small, unusual or faulty files: in one piece, which also words any error.
    return read_counts(path, text,
                       [&target](int group, const PositionKey& key, std::int64_t count) {
                           if (group == kPlainGroup) {
                               target.add(key, count);
                           } else {
                               target.add_to_group(group, key, count);
                           }
                       });
}

namespace {

// A sink as a target, so that it is read the target's ways too: the sink gets the counts as
// they come, a blank copy (a piece read on another thread) keeps them until merged.
class SinkTarget final : public CountTarget {
  public:
    explicit SinkTarget(const GroupedCountSink* sink) : sink_(sink) {}
    void add(const PositionKey& key, std::int64_t count) override { add_to_group(0, key, count); }
    void add_to_group(int group, const PositionKey& key, std::int64_t count) override {
        if (sink_) return (*sink_)(group, key, count);
        kept_.push_back({group, key, count});
    }
    std::unique_ptr<CountTarget> blank_copy() const override {
        return std::make_unique<SinkTarget>(nullptr);
    }
    void merge(const CountTarget& part) override {
        for (const Kept& kept : static_cast<const SinkTarget&>(part).kept_)
            add_to_group(kept.group, kept.key, kept.count);
    }

  private:
    struct Kept {
        int group;
        PositionKey key;
        std::int64_t count;
    };
    const GroupedCountSink* sink_;
    std::vector<Kept> kept_;
};

}  // namespace

CountFileReport read_count_file(const std::filesystem::path& path, const CountSink& sink) {
    GroupedCountSink ungrouped = [&sink](int, const PositionKey& key, std::int64_t count) {
        sink(key, count);
    };
    SinkTarget target(&ungrouped);
    return read_count_file(path, target);
}

CountFileReport read_grouped_count_file(const std::filesystem::path& path,
                                        const GroupedCountSink& sink) {
    SinkTarget target(&sink);
    return read_count_file(path, target);
}

std::vector<std::string> repeated_key_warnings(const std::filesystem::path& file,
                                               const std::vector<std::string>& repeated_keys) {
    constexpr std::size_t kShown = 10;
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < std::min(repeated_keys.size(), kShown); ++i) {
        lines.push_back(
            fmt::format("Warning: {}: key \"{}\" is given more than once; its last count is used.",
                        file.string(), repeated_keys[i]));
    }
    if (repeated_keys.size() > kShown) {
        lines.push_back(
            fmt::format("Warning: {}: {} more repetitions of keys; their last counts are used.",
                        file.string(), repeated_keys.size() - kShown));
    }
    return lines;
}

}  // namespace wdl::counts
