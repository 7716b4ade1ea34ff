#include "wdl/model/count_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <simdjson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wdl::model {

namespace {

namespace od = simdjson::ondemand;

// The file's bytes for simdjson, which may read SIMDJSON_PADDING bytes past the end. A
// memory-mapped file avoids copying large files when its last page has room for the padding
// (the kernel fills it with zeros); otherwise the bytes are read into a padded copy.
class JsonText {
  public:
    explicit JsonText(const std::filesystem::path& path) {
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
        if (!map_) {
            if (auto error = simdjson::padded_string::load(path.string()).get(copy_)) {
                throw std::runtime_error(fmt::format("Error: cannot read {}: {}", path.string(),
                                                     simdjson::error_message(error)));
            }
            view_ = copy_;
        }
    }
    ~JsonText() {
        if (map_) ::munmap(map_, map_size_);
    }
    JsonText(const JsonText&) = delete;
    JsonText& operator=(const JsonText&) = delete;

    simdjson::padded_string_view view() const { return view_; }

  private:
    void* map_ = nullptr;
    std::size_t map_size_ = 0;
    simdjson::padded_string copy_;
    simdjson::padded_string_view view_;
};

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
    throw std::runtime_error(fmt::format("Error: malformed JSON in {}: {}", path.string(),
                                         simdjson::error_message(error)));
}

// The count of one key: a non-negative integer of at most 64 bits (an integral float such as
// 3.0 is accepted).
std::int64_t read_count(const std::filesystem::path& path, std::string_view key, od::value value) {
    auto token = [&value] {
        std::string_view text = value.raw_json_token();
        return text.substr(0, text.find_last_not_of(" \t\r\n") + 1);
    };
    auto fail = [&](std::string_view problem) {
        throw std::runtime_error(fmt::format("Error: {}: the count of key \"{}\" {} ({}).",
                                             path.string(), key, problem, token()));
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

// Sorts entries by key, keeping the file's order among equal keys, and keeps the last entry
// of each key only; repeated(entry) is called for every entry that replaces another.
template <typename Entry, typename KeyOf, typename Repeated>
void keep_last_of_each_key(std::vector<Entry>& entries, KeyOf key_of, Repeated repeated) {
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const Entry& x, const Entry& y) { return key_of(x) < key_of(y); });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (kept > 0 && key_of(entries[kept - 1]) == key_of(entries[i])) {
            repeated(entries[i]);
            entries[kept - 1] = std::move(entries[i]);
        } else {
            if (kept != i) entries[kept] = std::move(entries[i]);
            ++kept;
        }
    }
    entries.resize(kept);
}

// The counts of one file. As Python's json.load, a key given again replaces the count it had.
// Scanners write the keys sorted, so that none can repeat: that costs one comparison per key,
// and only a file out of order is sorted to find repeats. Keys in the scanners' spelling are
// compared packed; other spellings by their text, since in Python "('W', 1, 2, 3)" and
// "('W', 1, 2, +3)" are different JSON keys that both count.
class FileCounts {
  public:
    explicit FileCounts(std::size_t expected_keys) { packed_.reserve(expected_keys); }

    void add(std::string_view text, const PositionKey& key, bool canonical, std::int64_t count) {
        in_order_ = in_order_ && previous_text_ < text;
        previous_text_ = text;
        if (canonical) {
            packed_.push_back({pack_key(key), count});
        } else {
            spelled_.push_back({std::string(text), key, count});
        }
    }

    // Sends the last count of each key to sink; returns the keys that were given again.
    std::vector<std::string> send_to(const CountSink& sink) {
        std::vector<std::string> repeated;
        if (!in_order_) {
            keep_last_of_each_key(
                packed_, [](const PackedCount& entry) { return entry.key; },
                [&](const PackedCount& entry) {
                    repeated.push_back(format_key(unpack_key(entry.key)));
                });
            keep_last_of_each_key(
                spelled_,
                [](const SpelledCount& entry) -> const std::string& { return entry.text; },
                [&](const SpelledCount& entry) { repeated.push_back(entry.text); });
        }
        for (const PackedCount& entry : packed_) sink(unpack_key(entry.key), entry.count);
        for (const SpelledCount& entry : spelled_) sink(entry.key, entry.count);
        return repeated;
    }

  private:
    struct PackedCount {
        std::uint64_t key;
        std::int64_t count;
    };
    struct SpelledCount {
        std::string text;
        PositionKey key;
        std::int64_t count;
    };

    bool in_order_ = true;
    std::string_view previous_text_;  // into the file or the parser's buffer, both kept alive
    std::vector<PackedCount> packed_;
    std::vector<SpelledCount> spelled_;
};

// Whether a key survives pack_key unchanged.
bool packable(const PositionKey& key) {
    return key.move >= 0 && key.move <= 0xffff && key.material >= 0 && key.material <= 0xff &&
           key.eval >= -0x8000 && key.eval <= 0x7fff;
}

}  // namespace

CountFileReport read_count_file(const std::filesystem::path& path, const CountSink& sink) {
    CountFileReport report;
    JsonText text(path);
    if (is_null_document(text.view())) return report;
    const char* text_end = text.view().data() + text.view().size();
    od::parser parser;
    od::document document;
    if (auto error = parser.iterate(text.view()).get(document)) fail_json(path, error);
    od::object object;
    if (auto error = document.get_object().get(object)) fail_json(path, error);
    // A key with its count takes some 20 bytes of text or more ("('W', 1, 1, 1)": 1,): room
    // for all, reserved at once, saves copying a growing vector.
    FileCounts counts(text.view().size() / 20);
    for (auto field_result : object) {
        od::field field;
        if (auto error = std::move(field_result).get(field)) fail_json(path, error);
        std::string_view key_text = raw_key(field, text_end);
        if (key_text.find('\\') != std::string_view::npos) {
            if (auto error = field.unescaped_key().get(key_text)) fail_json(path, error);
        }
        auto key = parse_canonical_key(key_text);
        bool canonical = key && packable(*key);
        if (!canonical) key = parse_key(key_text);
        if (!key) {
            throw std::runtime_error(
                fmt::format("Error: {}: key \"{}\" is not of the form ('W', move, material, eval).",
                            path.string(), key_text));
        }
        counts.add(key_text, *key, canonical, read_count(path, key_text, field.value()));
    }
    // Past the end of the document, asking for the current location is an error.
    if (!document.current_location().error()) {
        throw std::runtime_error(
            fmt::format("Error: malformed JSON in {}: trailing content", path.string()));
    }
    report.repeated_keys = counts.send_to(sink);
    return report;
}

}  // namespace wdl::model
