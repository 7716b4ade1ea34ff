#include "wdl/fishtest/local_layout.hpp"

#include <zlib.h>

#include <algorithm>
#include <string_view>

#include "wdl/util/atomic_file.hpp"

namespace wdl::fishtest {

bool is_valid_test_id(std::string_view id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
    });
}

std::optional<std::string> test_id_of_game_file(std::string_view file_name) {
    // Accepted names: <id>.pgn, <id>-<task>.pgn, each optionally .gz or .zst compressed.
    for (std::string_view suffix : {".pgn.gz", ".pgn.zst", ".pgn"}) {
        if (!file_name.ends_with(suffix)) continue;
        auto stem = file_name.substr(0, file_name.size() - suffix.size());
        auto dash = stem.find('-');
        auto id = stem.substr(0, dash);
        if (dash != stem.npos) {
            auto task = stem.substr(dash + 1);
            if (task.empty() ||
                !std::all_of(task.begin(), task.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return std::nullopt;
        }
        if (!is_valid_test_id(id)) return std::nullopt;
        return std::string(id);
    }
    return std::nullopt;
}

std::map<std::string, std::set<std::filesystem::path>> find_test_folders(
    const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    std::map<std::string, std::set<fs::path>> tests;
    std::error_code error;
    fs::recursive_directory_iterator entry(root, fs::directory_options::skip_permission_denied,
                                           error);
    // Unreadable entries are skipped rather than fatal: the scan only decides what to fetch.
    for (; !error && entry != fs::recursive_directory_iterator(); entry.increment(error)) {
        auto name = entry->path().filename().string();
        if (entry->is_directory(error)) {
            if (name.starts_with(".")) entry.disable_recursion_pending();
            continue;
        }
        if (auto id = test_id_of_game_file(name)) tests[*id].insert(entry->path().parent_path());
    }
    return tests;
}

std::map<std::string, std::filesystem::path> find_downloaded_tests(
    const std::filesystem::path& root) {
    std::map<std::string, std::filesystem::path> tests;
    for (const auto& [id, folders] : find_test_folders(root)) tests.emplace(id, *folders.begin());
    return tests;
}

std::filesystem::path game_file_path(const std::filesystem::path& root, const std::string& date,
                                     const std::string& id) {
    return root / date / id / (id + ".pgn.gz");
}

std::filesystem::path metadata_path(const std::filesystem::path& test_folder,
                                    const std::string& id) {
    return test_folder / (id + ".json");
}

std::string format_metadata(const nlohmann::json& metadata) {
    // nlohmann's objects keep keys sorted; indent 4, ": " and ASCII escapes match Python's.
    return metadata.dump(4, ' ', true);
}

void write_metadata(const std::filesystem::path& file, const nlohmann::json& metadata) {
    util::write_file_atomically(file, format_metadata(metadata));
}

long long count_finished_games(const std::filesystem::path& game_file) {
    // gzopen reads plain files as they are and every member of a multi-member .gz.
    gzFile file = gzopen(game_file.c_str(), "rb");
    if (!file) return 0;
    gzbuffer(file, 1 << 17);
    long long games = 0;
    bool at_line_start = true;
    char chunk[4096];
    // gzgets returns long lines in pieces; tag lines are short and start a line.
    while (gzgets(file, chunk, sizeof chunk)) {
        std::string_view piece(chunk);
        if (at_line_start && piece.starts_with("[Result ") &&
            (piece.find("\"1-0\"") != piece.npos || piece.find("\"0-1\"") != piece.npos ||
             piece.find("\"1/2-1/2\"") != piece.npos))
            ++games;
        at_line_start = piece.ends_with('\n');
    }
    gzclose(file);
    return games;
}

void remove_stale_temporaries(const std::filesystem::path& test_folder, const std::string& id) {
    namespace fs = std::filesystem;
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
