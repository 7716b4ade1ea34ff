#include "wdl/counts/grouping.hpp"

namespace wdl::counts {
namespace {

// FNV-1a: a fixed, documented hash of the bytes, the same on every platform.
std::uint64_t name_hash(std::string_view name) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : name) hash = (hash ^ c) * 0x100000001b3ull;
    return hash;
}

// SplitMix64's finalizer: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A 64-bit hash modulo a number of groups: the bias is below 2^-47.
int reduce(std::uint64_t hash, int groups) { return int(hash % std::uint64_t(groups)); }

}  // namespace

std::string_view group_by_name(GroupBy by) { return util::name_of(kGroupByNames, by); }

std::optional<GroupBy> group_by_from_name(std::string_view name) {
    return util::value_named(kGroupByNames, name);
}

int group_of_game(std::string_view file, std::uint64_t offset, int groups) {
    return reduce(mix(name_hash(file) + mix(offset + 1)), groups);
}

int group_of_drawn_game(std::uint64_t stream, std::uint64_t index, int groups) {
    return reduce(mix(mix(stream + 0x632BE59BD9B4E019ull) + index), groups);
}

std::string describe(const Grouping& grouping) {
    return std::to_string(grouping.groups) + " groups by " +
           std::string(group_by_name(grouping.by));
}

}  // namespace wdl::counts
