#include "wdl/counts/human_counts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "wdl/io/block_reader.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/checked_sum.hpp"
#include "wdl/util/error.hpp"

// The file (docs/formats.md, "Human-games count files"): a header line of JSON,
//   {"format": "wdlfit-human-counts", "version": 1, "groups": K, "ratingBinWidth": 50,
//    "cells": N, "columns": [...]}
// then N lines "W 12 62 35 1525 1475 rapid 3 17": result, move, material, eval, rating,
// opponent's rating, speed class, group, count, one space apart. Text, so that a reader in any
// language (the model's users) takes it with a split per line.
namespace wdl::counts {

namespace {

constexpr int kHumanCountsVersion = 1;
// What begins every such file: the header's first member, as the writer spells it,
// {"format": "wdlfit-human-counts".
constexpr std::string_view kFormatMember = R"({"format": ")";
constexpr std::size_t kHeaderStartSize = kFormatMember.size() + kHumanCountsFormat.size() + 1;

const char* const kColumns[] = {"result",         "move",  "material", "eval", "rating",
                                "opponentRating", "speed", "group",    "count"};

// Lichess's bounds of the estimated duration (seconds) of each timed class.
constexpr std::int64_t kUltraBulletBelow = 30;
constexpr std::int64_t kBulletBelow = 180;
constexpr std::int64_t kBlitzBelow = 480;
constexpr std::int64_t kRapidBelow = 1500;
// The estimate counts this many moves of increment.
constexpr std::int64_t kIncrementMoves = 40;

std::optional<std::int64_t> clock_seconds(std::string_view digits) {
    // At most 9 digits: no overflow below, and no real clock is longer.
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    std::int64_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

static_assert(kRatingLimit / kRatingBinWidth <= 128, "a rating's bin number packs into 7 bits");
constexpr int kPackedEvalOffset = 1024;  // 11 bits

int rating_bin_number(int binned_rating) { return binned_rating / kRatingBinWidth; }

bool valid_rating(int rating) {
    return rating >= 0 && rating < kRatingLimit && rating == bin_rating(rating);
}

bool valid_key(const HumanKey& key) {
    const int eval = key.position.eval;
    return packable(key.position) && (std::abs(eval) <= kMaxEval || std::abs(eval) == kMateEval) &&
           valid_rating(key.rating) && valid_rating(key.opponent_rating);
}

// The writer's order of a valid key as one number: its fields from the most significant,
// result (2 bits), move (16), material (8), eval (16), ratings (7 each), speed (3).
std::uint64_t key_order(const HumanKey& key) {
    const PositionKey& position = key.position;
    return (std::uint64_t(position.result) << 62) | (std::uint64_t(position.move) << 46) |
           (std::uint64_t(position.material) << 38) | (std::uint64_t(position.eval + 32768) << 22) |
           (std::uint64_t(rating_bin_number(key.rating)) << 15) |
           (std::uint64_t(rating_bin_number(key.opponent_rating)) << 8) |
           (std::uint64_t(key.speed) << 5);
}

std::pair<std::uint64_t, int> cell_order(const HumanCell& cell) {
    return {key_order(cell.key), cell.group};
}

std::string header_line(int groups, std::size_t cells) {
    return fmt::format(
        "{}{}\", \"version\": {}, \"groups\": {}, \"ratingBinWidth\": {}, \"cells\": {}, "
        "\"columns\": [\"{}\"]}}\n",
        kFormatMember, kHumanCountsFormat, kHumanCountsVersion, groups, kRatingBinWidth, cells,
        fmt::join(kColumns, "\", \""));
}

// The longest line: a letter and eight numbers of up to 20 characters, a speed's name, the
// spaces and the line's end.
constexpr std::size_t kLongestCellLine = 1 + 8 * 21 + 15 + 1;

// Writes the cell's line at out, which has room for kLongestCellLine characters, and returns
// its end (to_chars: a scan's hundreds of thousands of cells are written while it waits).
char* write_cell(char* out, const HumanCell& cell) {
    const HumanKey& key = cell.key;
    auto number = [&out](auto value) {
        *out++ = ' ';
        out = std::to_chars(out, out + 20, value).ptr;
    };
    *out++ = outcome_letter(key.position.result);
    number(key.position.move);
    number(key.position.material);
    number(key.position.eval);
    number(key.rating);
    number(key.opponent_rating);
    *out++ = ' ';
    const std::string_view speed = speed_class_name(key.speed);
    out = std::copy(speed.begin(), speed.end(), out);
    number(cell.group);
    number(cell.count);
    *out++ = '\n';
    return out;
}

// The header and the lines of `cells` cells, cell(i) the i-th in the writer's order; commits.
template <typename Cell>
void write_cells(util::AtomicFile& output, int groups, std::size_t cells, Cell&& cell) {
    output.write(header_line(groups, cells));
    constexpr std::size_t kLinesAtOnce = 1 << 14;
    std::vector<char> text(kLinesAtOnce * kLongestCellLine);
    for (std::size_t first = 0; first < cells; first += kLinesAtOnce) {
        char* out = text.data();
        for (std::size_t i = first; i < std::min(cells, first + kLinesAtOnce); ++i)
            out = write_cell(out, cell(i));
        output.write(std::string_view(text.data(), std::size_t(out - text.data())));
    }
    output.commit();
}

// Reads a human-games count file line by line, so that memory holds the cells, not the text.
class HumanCountsParser {
  public:
    explicit HumanCountsParser(const std::filesystem::path& file)
        : file_(file), reader_(io::BlockReader::open(file)) {}

    // Every cell to `visit` in the file's order, one line in memory at a time; the header's
    // groups and cells, known before the first cell, to `begin`.
    void visit(const std::function<void(int groups, std::size_t cells)>& begin,
               const std::function<void(const HumanCell&)>& visit_cell) {
        std::string_view header;
        if (!next_line(header)) fail_kind("it is empty");
        const std::size_t cells = read_header(header);
        begin(groups_, cells);
        std::size_t read = 0;
        std::optional<std::pair<std::uint64_t, int>> previous;
        std::string_view line;
        while (next_line(line)) {
            const HumanCell cell = parse_cell(line);
            if (cell.group >= groups_)
                fail_line(
                    fmt::format("group {} is not below the file's {} groups", cell.group, groups_));
            if (previous && !(*previous < cell_order(cell)))
                fail_line("the cell is not after the one before it (each cell once, in order)");
            previous = cell_order(cell);
            ++read;
            visit_cell(cell);
        }
        if (!reader_->damage().empty())
            throw Error(fmt::format("{} is damaged: {}", file_.string(), reader_->damage()));
        if (read != cells) {
            throw Error(fmt::format("{} is cut short: its header announces {} cells, it holds {}",
                                    file_.string(), cells, read));
        }
    }

  private:
    // The next line without its '\n'; false at the end of the data.
    bool next_line(std::string_view& line) {
        for (;;) {
            std::size_t end = text_.find('\n', position_);
            if (end != std::string::npos) {
                line = std::string_view(text_).substr(position_, end - position_);
                position_ = end + 1;
                ++line_number_;
                return true;
            }
            text_.erase(0, position_);
            position_ = 0;
            if (reader_->read_block(text_) == 0) {
                if (text_.empty()) return false;
                fail_line("the last line has no line end (the file is cut short)");
            }
        }
    }

    [[noreturn]] void fail_kind(std::string_view what) const {
        throw Error(
            fmt::format("{} is no human-games count file (which scoreWDLstat --human writes): {}",
                        file_.string(), what));
    }
    [[noreturn]] void fail_line(std::string_view problem) const {
        throw Error(fmt::format("{}: line {}: {}", file_.string(), line_number_, problem));
    }

    std::size_t read_header(std::string_view line) {
        if (!begins_as_human_counts(line)) fail_kind("its first line is not the header");
        auto header = nlohmann::json::parse(line, nullptr, false);
        if (header.is_discarded() || !header.is_object()) fail_line("the header is not JSON");
        auto integer = [&](const char* name) {
            auto found = header.find(name);
            if (found == header.end() || !found->is_number_integer())
                fail_line(fmt::format("the header has no integer \"{}\"", name));
            return found->get<std::int64_t>();
        };
        if (integer("version") != kHumanCountsVersion) {
            fail_line(fmt::format("version {} of the format, where this build reads version {}",
                                  integer("version"), kHumanCountsVersion));
        }
        if (integer("ratingBinWidth") != kRatingBinWidth) {
            fail_line(fmt::format("ratings in bins of {}, where this build keeps bins of {}",
                                  integer("ratingBinWidth"), kRatingBinWidth));
        }
        std::int64_t groups = integer("groups");
        if (groups < 1 || groups > std::numeric_limits<int>::max())
            fail_line("\"groups\" is not a positive number");
        groups_ = int(groups);
        std::int64_t cells = integer("cells");
        if (cells < 0) fail_line("\"cells\" is negative");
        return std::size_t(cells);
    }

    // One field up to the next space (or the line's end), which it consumes.
    std::string_view field(std::string_view& line) const {
        std::size_t space = line.find(' ');
        std::string_view value = line.substr(0, space);
        line = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        if (value.empty()) fail_line("a field is missing or two spaces follow each other");
        return value;
    }
    template <typename Integer>
    Integer number(std::string_view& line, const char* name) const {
        std::string_view text = field(line);
        Integer value{};
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size())
            fail_line(fmt::format("the {} \"{}\" is not an integer in range", name, text));
        return value;
    }

    HumanCell parse_cell(std::string_view line) const {
        HumanCell cell;
        HumanKey& key = cell.key;
        std::string_view result = field(line);
        auto outcome = result.size() == 1 ? outcome_from_letter(result[0]) : std::nullopt;
        if (!outcome) fail_line(fmt::format("the result \"{}\" is not W, D or L", result));
        key.position.result = *outcome;
        key.position.move = number<int>(line, "move");
        key.position.material = number<int>(line, "material");
        key.position.eval = number<int>(line, "eval");
        key.rating = number<int>(line, "rating");
        key.opponent_rating = number<int>(line, "opponent's rating");
        std::string_view speed = field(line);
        auto speed_class = speed_class_from_name(speed);
        if (!speed_class) fail_line(fmt::format("\"{}\" is no speed class", speed));
        key.speed = *speed_class;
        cell.group = number<int>(line, "group");
        cell.count = number<std::uint64_t>(line, "count");
        if (!line.empty()) fail_line("the line has more than nine fields");
        if (!valid_key(key)) fail_line("the key is out of the ranges a scan gives");
        if (cell.group < 0) fail_line("the group is negative");
        if (cell.count == 0) fail_line("a cell of count 0");
        return cell;
    }

    const std::filesystem::path& file_;
    std::unique_ptr<io::BlockReader> reader_;
    std::string text_;
    std::size_t position_ = 0;
    std::size_t line_number_ = 0;
    int groups_ = 1;
};

}  // namespace

std::string_view speed_class_name(SpeedClass speed) {
    return util::name_of(kSpeedClassNames, speed);
}

std::optional<SpeedClass> speed_class_from_name(std::string_view name) {
    return util::value_named(kSpeedClassNames, name);
}

std::optional<SpeedClass> speed_class_of_time_control(std::string_view time_control) {
    if (time_control == "-") return SpeedClass::Correspondence;
    std::size_t plus = time_control.find('+');
    auto base = clock_seconds(time_control.substr(0, plus));
    auto increment = plus == std::string_view::npos ? std::optional<std::int64_t>(0)
                                                    : clock_seconds(time_control.substr(plus + 1));
    if (!base || !increment) return std::nullopt;
    const std::int64_t estimate = *base + kIncrementMoves * *increment;
    if (estimate < kUltraBulletBelow) return SpeedClass::UltraBullet;
    if (estimate < kBulletBelow) return SpeedClass::Bullet;
    if (estimate < kBlitzBelow) return SpeedClass::Blitz;
    if (estimate < kRapidBelow) return SpeedClass::Rapid;
    return SpeedClass::Classical;
}

int bin_rating(int rating) {
    // Floor division, so that a bin is [k w, (k + 1) w) for negative ratings too.
    int bin = rating / kRatingBinWidth - (rating % kRatingBinWidth < 0 ? 1 : 0);
    return bin * kRatingBinWidth + kRatingBinWidth / 2;
}

std::uint64_t HumanCounts::total_count() const {
    std::int64_t sum = 0;
    for (const auto& cell : cells) sum = util::checked_sum(sum, std::int64_t(cell.count));
    return std::uint64_t(sum);
}

bool human_packable(const HumanKey& key, int group) {
    return valid_key(key) && key.position.move < 1024 && group >= 0 &&
           group < kMaxPackedHumanGroups;
}

std::uint64_t pack_human_cell(const HumanKey& key, int group) {
    const PositionKey& position = key.position;
    return (std::uint64_t(position.result) << 62) | (std::uint64_t(position.move) << 52) |
           (std::uint64_t(position.material) << 44) |
           (std::uint64_t(position.eval + kPackedEvalOffset) << 33) |
           (std::uint64_t(rating_bin_number(key.rating)) << 26) |
           (std::uint64_t(rating_bin_number(key.opponent_rating)) << 19) |
           (std::uint64_t(key.speed) << 16) | std::uint64_t(group);
}

HumanCell unpack_human_cell(std::uint64_t packed, std::uint64_t count) {
    auto field = [packed](int shift, int bits) {
        return int((packed >> shift) & ((std::uint64_t{1} << bits) - 1));
    };
    auto rating = [](int number) { return number * kRatingBinWidth + kRatingBinWidth / 2; };
    HumanCell cell;
    cell.key.position.result = Outcome(field(62, 2));
    cell.key.position.move = field(52, 10);
    cell.key.position.material = field(44, 8);
    cell.key.position.eval = field(33, 11) - kPackedEvalOffset;
    cell.key.rating = rating(field(26, 7));
    cell.key.opponent_rating = rating(field(19, 7));
    cell.key.speed = SpeedClass(field(16, 3));
    cell.group = field(0, 16);
    cell.count = count;
    return cell;
}

bool begins_as_human_counts(std::string_view first_bytes) {
    return first_bytes.size() >= kHeaderStartSize && first_bytes.starts_with(kFormatMember) &&
           first_bytes.substr(kFormatMember.size()).starts_with(kHumanCountsFormat) &&
           first_bytes[kHeaderStartSize - 1] == '"';
}

void write_human_counts(const HumanCounts& counts, util::AtomicFile& output) {
    struct Sorted {
        std::pair<std::uint64_t, int> order;
        const HumanCell* cell;
    };
    std::vector<Sorted> cells;
    cells.reserve(counts.cells.size());
    for (const auto& cell : counts.cells) {
        if (cell.count == 0) continue;
        if (cell.group < 0 || cell.group >= counts.groups || !valid_key(cell.key)) {
            throw Error(fmt::format(
                "cannot write human-games counts: a cell of group {} (of {}) or key {} rated "
                "{} against {} is out of range",
                cell.group, counts.groups, format_key(cell.key.position), cell.key.rating,
                cell.key.opponent_rating));
        }
        cells.push_back({cell_order(cell), &cell});
    }
    std::sort(cells.begin(), cells.end(),
              [](const Sorted& a, const Sorted& b) { return a.order < b.order; });
    for (std::size_t i = 1; i < cells.size(); ++i) {
        if (cells[i - 1].order == cells[i].order) {
            throw Error(fmt::format(
                "cannot write human-games counts: the key {} of group {} is given twice",
                format_key(cells[i].cell->key.position), cells[i].cell->group));
        }
    }
    write_cells(output, counts.groups, cells.size(),
                [&cells](std::size_t i) -> const HumanCell& { return *cells[i].cell; });
}

void write_human_counts(const CountMap& packed_counts, int groups, util::AtomicFile& output) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> cells;
    cells.reserve(packed_counts.distinct_keys());
    packed_counts.for_each(
        [&cells](std::uint64_t packed, std::uint64_t count) { cells.emplace_back(packed, count); });
    std::sort(cells.begin(), cells.end());
    HumanCell cell;
    write_cells(output, groups, cells.size(), [&](std::size_t i) -> const HumanCell& {
        cell = unpack_human_cell(cells[i].first, cells[i].second);
        return cell;
    });
}

std::size_t write_human_counts(CellRuns& packed_runs, int groups, util::AtomicFile& output) {
    std::size_t cells = 0;
    std::uint64_t packed = 0, count = 0;
    for (auto merged = packed_runs.merged(); merged->next(packed, count);) ++cells;
    auto merged = packed_runs.merged();
    HumanCell cell;
    write_cells(output, groups, cells, [&](std::size_t) -> const HumanCell& {
        merged->next(packed, count);
        cell = unpack_human_cell(packed, count);
        return cell;
    });
    return cells;
}

void write_human_counts(const std::filesystem::path& file, const HumanCounts& counts) {
    util::AtomicFile output(file);
    write_human_counts(counts, output);
}

HumanCounts read_human_counts(const std::filesystem::path& file) {
    HumanCounts counts;
    HumanCountsParser(file).visit(
        [&](int groups, std::size_t cells) {
            counts.groups = groups;
            // A header's count is not trusted with memory before the cells are there.
            counts.cells.reserve(std::min<std::size_t>(cells, std::size_t{1} << 24));
        },
        [&](const HumanCell& cell) { counts.cells.push_back(cell); });
    return counts;
}

void visit_human_counts(const std::filesystem::path& file,
                        const std::function<void(int groups, std::size_t cells)>& begin,
                        const std::function<void(const HumanCell&)>& visit) {
    HumanCountsParser(file).visit(begin, visit);
}

bool is_human_count_file(const std::filesystem::path& file) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) return false;
    io::ReaderLimits limits;
    limits.block_bytes = 4096;
    auto reader = io::BlockReader::open(file, limits);
    std::string start;
    while (start.size() < kHeaderStartSize && reader->read_block(start) > 0) {
    }
    return begins_as_human_counts(start);
}

}  // namespace wdl::counts
