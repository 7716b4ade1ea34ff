#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

// Where fishtest's games and metadata lie on disk (docs/formats.md): the downloader's layout
// ROOT/YY-MM-DD/<id>/<id>.pgn.gz (or several <id>-<task>.pgn.gz) next to <id>.json, which the
// scanner reads back. The one home of what a game file and a test id are.
namespace wdl::fishtest {

// True for the names of game files: *.pgn, *.pgn.gz and *.pgn.zst (with a name before them).
bool is_game_file_name(std::string_view file_name);

// The test id of a game file: its name up to the first '-' or '.' (the original scanner's
// rule, so "abc-2.pgn.gz" and "abc.pgn" belong to test "abc"). Any other file (training data)
// is a test of its own whole name: a dataset's files share their name's start.
std::string test_id_of(const std::filesystem::path& game_file);

// The metadata file of a game file's test: <same folder>/<test id>.json.
std::filesystem::path metadata_file_of(const std::filesystem::path& game_file);

// Fishtest ids are lower-case hex; an id that is not of this alphabet (say "../x") must never
// become part of a path built from a server's answer.
bool is_valid_test_id(std::string_view id);

// Every valid test id with a game file anywhere under `root` (hidden folders are skipped),
// mapped to every folder holding game files of it (a test's games may have been collected
// twice). Unreadable entries are skipped.
std::map<std::string, std::set<std::filesystem::path>> find_test_folders(
    const std::filesystem::path& root);

// Every test id with a game file anywhere under `root`, mapped to the first of its folders.
std::map<std::string, std::filesystem::path> find_downloaded_tests(
    const std::filesystem::path& root);

// ROOT/YY-MM-DD/<id>/<id>.pgn.gz, where the downloader puts a test's games.
std::filesystem::path game_file_path(const std::filesystem::path& root, const std::string& date,
                                     const std::string& id);
// <test folder>/<id>.json
std::filesystem::path metadata_path(const std::filesystem::path& test_folder,
                                    const std::string& id);

// Games with a decisive or drawn Result tag in a game file (a quick line count, as the
// original downloader reports after a download); 0 if the file cannot be read.
long long count_finished_games(const std::filesystem::path& game_file);

// Removes the temporaries of test `id`'s game file and metadata that interrupted downloads left
// in `test_folder`.
void remove_stale_temporaries(const std::filesystem::path& test_folder, const std::string& id);

}  // namespace wdl::fishtest
