#include "wdl/fishtest/layout.hpp"

#include <algorithm>
#include <memory>
#include <string_view>

#include "wdl/io/block_reader.hpp"

namespace wdl::fishtest {

namespace fs = std::filesystem;

bool is_game_file_name(std::string_view file_name) {
    for (std::string_view suffix : {".pgn", ".pgn.gz", ".pgn.zst"}) {
        if (file_name.size() > suffix.size() && file_name.ends_with(suffix)) return true;
    }
    return false;
}

std::string test_id_of(const fs::path& game_file) {
    std::string name = game_file.filename().string();
    if (!is_game_file_name(name)) return name;
    return name.substr(0, name.find_first_of("-."));
}

fs::path metadata_file_of(const fs::path& game_file) {
    return metadata_path(game_file.parent_path(), test_id_of(game_file));
}

bool is_valid_test_id(std::string_view id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
    });
}

std::map<std::string, std::set<fs::path>> find_test_folders(const fs::path& root) {
    std::map<std::string, std::set<fs::path>> tests;
    std::error_code error;
    fs::recursive_directory_iterator entry(root, fs::directory_options::skip_permission_denied,
                                           error);
    // Unreadable entries are skipped rather than fatal: the search only decides what to fetch.
    for (; !error && entry != fs::recursive_directory_iterator(); entry.increment(error)) {
        auto name = entry->path().filename().string();
        if (entry->is_directory(error)) {
            if (name.starts_with(".")) entry.disable_recursion_pending();
            continue;
        }
        if (!is_game_file_name(name)) continue;
        auto id = test_id_of(name);
        if (is_valid_test_id(id)) tests[id].insert(entry->path().parent_path());
    }
    return tests;
}

std::map<std::string, fs::path> find_downloaded_tests(const fs::path& root) {
    std::map<std::string, fs::path> tests;
    for (const auto& [id, folders] : find_test_folders(root)) tests.emplace(id, *folders.begin());
    return tests;
}

fs::path game_file_path(const fs::path& root, const std::string& date, const std::string& id) {
    return root / date / id / (id + ".pgn.gz");
}

fs::path metadata_path(const fs::path& test_folder, const std::string& id) {
    return test_folder / (id + ".json");
}

namespace {

bool is_finished_result_tag(std::string_view line) {
    return line.starts_with("[Result ") &&
           (line.find("\"1-0\"") != line.npos || line.find("\"0-1\"") != line.npos ||
            line.find("\"1/2-1/2\"") != line.npos);
}

}  // namespace

long long count_finished_games(const fs::path& game_file) {
    std::unique_ptr<io::BlockReader> reader;
    try {
        reader = io::BlockReader::open(game_file);
    } catch (const std::exception&) {
        return 0;
    }
    long long games = 0;
    std::string text;
    // Lines are counted as they complete; the unfinished last line waits for the next block.
    while (reader->read_block(text) > 0) {
        std::size_t line_start = 0;
        for (std::size_t end; (end = text.find('\n', line_start)) != std::string::npos;
             line_start = end + 1)
            games +=
                is_finished_result_tag(std::string_view(text).substr(line_start, end - line_start));
        text.erase(0, line_start);
    }
    games += is_finished_result_tag(text);
    return games;
}

void remove_stale_temporaries(const fs::path& test_folder, const std::string& id) {
    // AtomicFile names its temporaries <final name>.tmp.<pid>.<n>.
    auto game_prefix = game_file_path("", "", id).filename().string() + ".tmp.";
    auto metadata_prefix = metadata_path("", id).filename().string() + ".tmp.";
    std::error_code error;
    for (fs::directory_iterator entry(test_folder, error);
         !error && entry != fs::directory_iterator(); entry.increment(error)) {
        auto name = entry->path().filename().string();
        if (name.starts_with(game_prefix) || name.starts_with(metadata_prefix))
            fs::remove(entry->path(), error);
    }
}

}  // namespace wdl::fishtest
