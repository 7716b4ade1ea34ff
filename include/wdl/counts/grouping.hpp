#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Resampling units of grouped count files (docs/formats.md): every counted position belongs to
// one of K groups, chosen by a hash of its game (or by its fishtest test), so that whole games
// can be left out or drawn again when estimating how certain a fit is.
namespace wdl::counts {

enum class GroupBy { Game, Test };

std::string_view group_by_name(GroupBy by);
std::optional<GroupBy> group_by_from_name(std::string_view name);

// Groups are numbered 0 .. groups - 1; their number goes into 16 bits of a packed key.
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

// A packed key (pack_key) with its group in the top 16 bits, for counting groups in one
// CountMap; group 0 leaves the key as it is.
inline std::uint64_t with_group(std::uint64_t packed_key, int group) {
    return packed_key | (std::uint64_t(group) << 48);
}
inline int group_of_packed(std::uint64_t grouped_key) { return int(grouped_key >> 48); }
inline std::uint64_t without_group(std::uint64_t grouped_key) {
    return grouped_key & ((std::uint64_t{1} << 48) - 1);
}

}  // namespace wdl::counts
