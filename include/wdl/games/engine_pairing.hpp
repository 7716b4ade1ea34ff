#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "wdl/games/game_reading.hpp"

// Which engine of a game is the one under test (docs/markov.md, docs/comparison.md): the roles
// markovWDL and scaleWDL give the two players of a pairing.
namespace wdl::games {

// The two engines of a pairing: fishtest's New and Base (or, without metadata, the two names in
// sorted order unless they are New-... and Base-...).
enum Role : int { kNew = 0, kBase = 1 };
inline constexpr std::array<const char*, 2> kRoleNames = {"New", "Base"};

// A game file with what its test's metadata says about the pairing.
struct PairedGameFile {
    std::filesystem::path path;
    std::string test;                 // fishtest test id when the file has metadata; else empty
    std::string new_name, base_name;  // "New-<resolved_new>", "Base-<resolved_base>" if known
};

// The selected files with their tests' metadata.
std::vector<PairedGameFile> paired_game_files(const SelectedFiles& files);

// Whether White is the engine under test: fishtest's New-/Base- names; else the test's
// metadata, whose revisions a name may carry; else, with no clue, the names' order (so that
// every game of two engines gives them the same roles).
bool white_is_new(const std::string& white, const std::string& black, const PairedGameFile& file);

// What games of one pairing share: "test <id>" for a file with metadata, else the two names.
std::string pairing_key(const std::string& white, const std::string& black,
                        const PairedGameFile& file);

}  // namespace wdl::games
