#include "wdl/games/file_selection.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "wdl/fishtest/layout.hpp"
#include "wdl/util/error.hpp"

namespace wdl::games {
namespace fs = std::filesystem;

bool is_listed_too(const fs::path& path, const std::vector<std::string>& also_listed) {
    std::string name = path.filename().string();
    return std::any_of(also_listed.begin(), also_listed.end(),
                       [&](const std::string& suffix) { return name.ends_with(suffix); });
}

std::vector<fs::path> list_game_files(const fs::path& dir, bool recursive,
                                      const std::vector<std::string>& also_listed, bool games) {
    std::error_code error;
    if (!fs::is_directory(dir, error)) throw Error("Directory not found: " + dir.string());
    std::vector<fs::path> files;
    // A dangling link named like a game file is kept, so that the scan reports it as
    // unreadable instead of losing it without a word.
    auto consider = [&](const fs::directory_entry& entry) {
        std::error_code ignored;
        bool dangling_link = entry.is_symlink(ignored) && !entry.exists(ignored);
        bool listed = (games && fishtest::is_game_file_name(entry.path().filename().string())) ||
                      is_listed_too(entry.path(), also_listed);
        if ((entry.is_regular_file(ignored) || dangling_link) && listed)
            files.push_back(entry.path());
    };
    auto options = fs::directory_options::skip_permission_denied;
    if (recursive) {
        for (const auto& entry : fs::recursive_directory_iterator(dir, options)) consider(entry);
    } else {
        for (const auto& entry : fs::directory_iterator(dir, options)) consider(entry);
    }
    std::sort(files.begin(), files.end());
    return files;
}

namespace {

// The name without its compression suffix: x.pgn.gz and x.pgn.zst hold the same games.
std::string_view without_compression_suffix(std::string_view name) {
    for (std::string_view suffix : {".gz", ".zst"})
        if (name.ends_with(suffix)) return name.substr(0, name.size() - suffix.size());
    return name;
}

}  // namespace

std::optional<std::pair<fs::path, fs::path>> find_duplicate_files(
    const std::vector<fs::path>& sorted_files) {
    for (std::size_t i = 1; i < sorted_files.size(); ++i) {
        const auto& previous = sorted_files[i - 1].string();
        const auto& current = sorted_files[i].string();
        if (current.starts_with(previous) ||
            without_compression_suffix(current) == without_compression_suffix(previous))
            return std::make_pair(sorted_files[i - 1], sorted_files[i]);
    }
    return std::nullopt;
}

std::vector<std::string> find_duplicate_tests(const std::vector<fs::path>& files) {
    std::map<std::string, fs::path> directory_of_test;
    std::set<fs::path> reported;  // a set: copied corpora repeat thousands of directories
    std::vector<std::string> messages;
    for (const auto& file : files) {
        auto [it, inserted] =
            directory_of_test.emplace(fishtest::test_id_of(file), file.parent_path());
        if (inserted || it->second == file.parent_path()) continue;
        if (!reported.insert(file.parent_path()).second) continue;
        messages.push_back("Detected a duplicate of test " + it->first + " in directory " +
                           file.parent_path().string());
    }
    return messages;
}

namespace {

std::unique_ptr<RE2> compile(const std::string& pattern, const char* option) {
    if (pattern.empty()) return nullptr;
    auto regex = std::make_unique<RE2>(pattern, RE2::Quiet);
    if (!regex->ok())
        throw Error(std::string("invalid regular expression for ") + option + " \"" + pattern +
                    "\": " + regex->error());
    return regex;
}

using fishtest::RunMetadata;
using MetadataTest = std::function<bool(const RunMetadata&)>;

// Keeps the files whose test has metadata passing `keep`.
std::vector<fs::path> keep_files(std::vector<fs::path> files,
                                 const fishtest::MetadataByFile& metadata,
                                 const MetadataTest& keep) {
    std::erase_if(files, [&](const fs::path& file) {
        auto it = metadata.find(fishtest::metadata_file_of(file));
        return it == metadata.end() || !keep(it->second);
    });
    return files;
}

bool full_match(const std::optional<std::string>& value, const RE2& regex) {
    return value && RE2::FullMatch(*value, regex);
}

// Prints like iostream's default double output, which the original's line used.
std::string format_elo_bound(double value) {
    if (value == std::numeric_limits<double>::infinity()) return "inf";
    if (value == -std::numeric_limits<double>::infinity()) return "-inf";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

}  // namespace

namespace {

std::vector<fs::path> read_file_list(const fs::path& list) {
    std::ifstream in(list);
    if (!in) throw Error("cannot read the file list " + list.string());
    std::vector<fs::path> files;
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty() || line.starts_with('#')) continue;
        if (!fs::exists(line))
            throw Error("File not found: " + line + " (listed in " + list.string() + ")");
        files.emplace_back(line);
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

std::vector<fs::path> find_game_files(const GameFileSource& source, std::ostream& log) {
    if (source.file) {
        if (!fs::exists(*source.file)) throw Error("File not found: " + source.file->string());
        return {*source.file};
    }
    if (source.file_list) {
        auto files = read_file_list(*source.file_list);
        if (auto duplicate = find_duplicate_files(files)) {
            throw Error("\"Duplicate\" files: " + duplicate->first.string() + " and " +
                        duplicate->second.string());
        }
        return files;
    }
    // The original's line for games; a listing of training data says so.
    log << "Looking " << (source.recursive ? "(recursively) " : "") << "for "
        << (source.lists_games ? "pgn files" : "training data") << " in " << source.dir.string()
        << std::endl;
    auto files =
        list_game_files(source.dir, source.recursive, source.also_listed, source.lists_games);
    if (auto duplicate = find_duplicate_files(files)) {
        throw Error("\"Duplicate\" files: " + duplicate->first.string() + " and " +
                    duplicate->second.string());
    }
    for (const auto& message : find_duplicate_tests(files)) {
        if (!source.allow_duplicates)
            throw Error(message + "; use --allowDuplicates to continue nonetheless.");
        log << "Warning: " << message << std::endl;
    }
    return files;
}

Shard parse_shard(std::string_view text) {
    auto slash = text.find('/');
    Shard shard;
    bool valid = slash != std::string_view::npos;
    if (valid) {
        auto index = text.substr(0, slash), count = text.substr(slash + 1);
        valid = std::from_chars(index.data(), index.data() + index.size(), shard.index).ptr ==
                    index.data() + index.size() &&
                std::from_chars(count.data(), count.data() + count.size(), shard.count).ptr ==
                    count.data() + count.size() &&
                !index.empty() && !count.empty();
    }
    if (!valid || shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
        throw Error(
            "--shard must be I/N with 0 <= I < N, e.g. 0/4 for the first of 4 shards, not \"" +
            std::string(text) + "\"");
    return shard;
}

std::vector<fs::path> shard_files(const std::vector<fs::path>& files, const fs::path& root,
                                  Shard shard) {
    struct Test {
        std::string key;  // folder relative to root, and test id
        std::uint64_t bytes = 0;
        std::vector<fs::path> files;
    };
    std::map<std::string, Test> tests;
    for (const auto& file : files) {
        auto folder =
            root.empty() ? file.parent_path() : file.parent_path().lexically_relative(root);
        auto key = (folder / fishtest::test_id_of(file)).generic_string();
        Test& test = tests[key];
        test.key = key;
        std::error_code ignored;
        auto size = fs::file_size(file, ignored);
        test.bytes += ignored ? 0 : size;
        test.files.push_back(file);
    }
    std::vector<const Test*> order;
    for (const auto& [key, test] : tests) order.push_back(&test);
    std::stable_sort(order.begin(), order.end(),
                     [](const Test* a, const Test* b) { return a->bytes > b->bytes; });
    std::vector<std::uint64_t> load(std::size_t(shard.count), 0);
    std::vector<fs::path> selected;
    for (const Test* test : order) {
        auto least = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
        load[least] += test->bytes;
        if (int(least) == shard.index)
            selected.insert(selected.end(), test->files.begin(), test->files.end());
    }
    std::sort(selected.begin(), selected.end());
    return selected;
}

FileFilter::FileFilter(FileFilters filters)
    : filters_(std::move(filters)),
      book_(compile(filters_.match_book, "--matchBook")),
      revision_(compile(filters_.match_rev, "--matchRev")),
      time_control_(compile(filters_.match_tc, "--matchTC")) {}

FileFilter::~FileFilter() = default;
FileFilter::FileFilter(FileFilter&&) noexcept = default;

std::vector<fs::path> FileFilter::apply(std::vector<fs::path> files,
                                        const fishtest::MetadataByFile& metadata,
                                        std::ostream& log) const {
    const FileFilters& filters = filters_;
    if (filters.sprt_only) {
        files = keep_files(std::move(files), metadata, [](const RunMetadata& m) { return m.sprt; });
    }
    if (book_) {
        bool invert = filters.match_book_invert;
        log << "Filtering pgn files " << (invert ? "not " : "") << "matching the book name "
            << filters.match_book << "\n";
        files = keep_files(std::move(files), metadata, [&](const RunMetadata& m) {
            return m.book && (RE2::FullMatch(*m.book, *book_) != invert);
        });
    }
    if (revision_) {
        log << "Filtering pgn files matching revision SHA " << filters.match_rev << "\n";
        files = keep_files(std::move(files), metadata, [&](const RunMetadata& m) {
            return full_match(m.resolved_base, *revision_) ||
                   full_match(m.resolved_new, *revision_);
        });
    }
    if (time_control_) {
        log << "Filtering pgn files matching TC " << filters.match_tc << "\n";
        files = keep_files(std::move(files), metadata, [&](const RunMetadata& m) {
            auto controls = fishtest::time_controls(m);
            return controls.size() == 1 && RE2::FullMatch(controls[0], *time_control_);
        });
    }
    if (filters.match_threads) {
        int threads = *filters.match_threads;
        log << "Filtering pgn files using threads = " << threads << "\n";
        files = keep_files(std::move(files), metadata,
                           [&](const RunMetadata& m) { return m.threads == threads; });
    }
    if (filters.elo_diff_max || filters.elo_diff_min) {
        double max = filters.elo_diff_max.value_or(std::numeric_limits<double>::infinity());
        double min = filters.elo_diff_min.value_or(-max);
        log << "Filtering pgn files with nElo in [" << format_elo_bound(min) << ", "
            << format_elo_bound(max) << "]\n";
        if (min != -max && !filters.sprt_only)
            log << "Warning: Asymmetric nElo window suggests --SPRTonly should be used!\n";
        files = keep_files(std::move(files), metadata, [&](const RunMetadata& m) {
            if (!m.pentanomial) return false;
            double elo = fishtest::normalized_elo(*m.pentanomial);
            return min <= elo && elo <= max;
        });
    }
    return files;
}

std::uint64_t total_file_bytes(const std::vector<fs::path>& files) {
    std::uint64_t bytes = 0;
    for (const auto& file : files) {
        std::error_code ignored;
        auto size = fs::file_size(file, ignored);
        if (!ignored) bytes += size;
    }
    return bytes;
}

}  // namespace wdl::games
