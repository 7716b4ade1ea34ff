#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace wdl::fishtest {

// The downloader's layout: ROOT/YY-MM-DD/<id>/<id>.pgn.gz (or <id>-<task>.pgn(.gz)) next to
// <id>.json.

// Fishtest ids are lower-case hex; anything else (say "../x") must never become a path.
bool is_valid_test_id(std::string_view id);

// The test id of a game file name (<id>.pgn, <id>.pgn.gz, <id>-<task>.pgn.gz, also .pgn.zst),
// or nothing for any other name, including the temporaries of unfinished downloads.
std::optional<std::string> test_id_of_game_file(std::string_view file_name);

// Every test id with a game file anywhere under `root` (hidden folders are skipped), mapped to
// every folder holding game files of it (a test's games may have been collected twice).
std::map<std::string, std::set<std::filesystem::path>> find_test_folders(
    const std::filesystem::path& root);

// Every test id with a game file anywhere under `root`, mapped to the first of its folders.
std::map<std::string, std::filesystem::path> find_downloaded_tests(
    const std::filesystem::path& root);

std::filesystem::path game_file_path(const std::filesystem::path& root, const std::string& date,
                                     const std::string& id);
std::filesystem::path metadata_path(const std::filesystem::path& test_folder,
                                    const std::string& id);

// The metadata as Python's json.dump(meta, f, indent=4, sort_keys=True) writes it, so files
// are byte-identical to those of the original downloader.
std::string format_metadata(const nlohmann::json& metadata);

// Writes format_metadata() atomically.
void write_metadata(const std::filesystem::path& file, const nlohmann::json& metadata);

// Games with a decisive or drawn Result tag in a .pgn or .pgn.gz file (a quick line count, as
// the original downloader reports after a download); 0 if the file cannot be read.
long long count_finished_games(const std::filesystem::path& game_file);

// Removes the temporaries of test `id`'s game file and metadata that interrupted downloads left
// in `test_folder`.
void remove_stale_temporaries(const std::filesystem::path& test_folder, const std::string& id);

}  // namespace wdl::fishtest
