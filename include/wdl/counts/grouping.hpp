#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/util/enum_names.hpp"

// Resampling units of grouped count files (docs/formats.md): every counted position belongs to
// one of K groups, chosen by a hash of its game (or by its fishtest test), so that whole games
// can be left out or drawn again when estimating how certain a fit is.
namespace wdl::counts {

enum class GroupBy { Game, Test };
inline constexpr std::array<util::EnumName<GroupBy>, 2> kGroupByNames = {{
    {GroupBy::Game, "game"},
    {GroupBy::Test, "test"},
}};

std::string_view group_by_name(GroupBy by);
std::optional<GroupBy> group_by_from_name(std::string_view name);

// Groups are numbered 0 .. groups - 1.
inline constexpr int kMaxGroups = 65536;

struct Grouping {
    GroupBy by = GroupBy::Game;
    int groups = 1;

    friend bool operator==(const Grouping&, const Grouping&) = default;
};

// "64 groups by game", as the programs name a grouping.
std::string describe(const Grouping& grouping);

// The group of the game that starts at byte `offset` of the decompressed text of `file` (its
// path relative to the scanned folder): it depends on neither the threads nor the order of
// reading. 0 <= result < groups.
int group_of_game(std::string_view file, std::uint64_t offset, int groups);

// The group of game number `index` of a sampler's stream `stream`.
int group_of_drawn_game(std::uint64_t stream, std::uint64_t index, int groups);

}  // namespace wdl::counts
