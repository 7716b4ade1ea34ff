#include "wdl/games/engine_pairing.hpp"

#include <algorithm>
#include <string_view>

#include "wdl/fishtest/layout.hpp"

namespace wdl::games {
namespace {

bool starts_with(const std::string& text, std::string_view prefix) {
    return text.rfind(prefix, 0) == 0;
}

// Whether a player's name names the revision `sha` (fishtest: "New-<sha prefix>"; other
// tools: any name ending in "-<sha prefix>", or holding the whole sha).
bool names_revision(const std::string& name, std::string_view sha) {
    constexpr std::size_t kShortestPrefix = 7;
    if (sha.size() < kShortestPrefix) return false;
    if (name.find(sha) != std::string::npos) return true;
    std::size_t dash = name.rfind('-');
    if (dash == std::string::npos) return false;
    std::string_view suffix = std::string_view(name).substr(dash + 1);
    return suffix.size() >= kShortestPrefix && sha.starts_with(suffix);
}

}  // namespace

std::vector<PairedGameFile> paired_game_files(const SelectedFiles& files) {
    std::vector<PairedGameFile> paired;
    for (const auto& file : files.selected) {
        PairedGameFile info{file, {}, {}, {}};
        auto run = files.metadata.find(fishtest::metadata_file_of(file));
        if (run != files.metadata.end()) {
            info.test = fishtest::test_id_of(file);
            if (run->second.resolved_new) info.new_name = "New-" + *run->second.resolved_new;
            if (run->second.resolved_base) info.base_name = "Base-" + *run->second.resolved_base;
        }
        paired.push_back(std::move(info));
    }
    return paired;
}

bool white_is_new(const std::string& white, const std::string& black, const PairedGameFile& file) {
    if (starts_with(white, "New-") && starts_with(black, "Base-")) return true;
    if (starts_with(white, "Base-") && starts_with(black, "New-")) return false;
    std::string_view new_sha =
        std::string_view(file.new_name).substr(std::min<std::size_t>(4, file.new_name.size()));
    std::string_view base_sha =
        std::string_view(file.base_name).substr(std::min<std::size_t>(5, file.base_name.size()));
    if (names_revision(white, new_sha) != names_revision(black, new_sha))
        return names_revision(white, new_sha);
    if (names_revision(white, base_sha) != names_revision(black, base_sha))
        return names_revision(black, base_sha);
    if (starts_with(white, "Base-") != starts_with(black, "Base-"))
        return starts_with(black, "Base-");
    return white < black;
}

std::string pairing_key(const std::string& white, const std::string& black,
                        const PairedGameFile& file) {
    return file.test.empty() ? "engines " + std::min(white, black) + "\n" + std::max(white, black)
                             : "test " + file.test;
}

}  // namespace wdl::games
