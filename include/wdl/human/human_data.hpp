#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "wdl/counts/human_counts.hpp"
#include "wdl/human/human_model.hpp"

// A human-games count file's positions as the fit reads them: one speed class at a time, the
// outcomes of a (key, group) together, mates counted apart (they are left out of the fit).
namespace wdl::human {

// Where the curves a and b are the same: one material, one rating level, and evals shown as
// 0.00 or not (a form with the zero term moves a there).
struct HumanUnit {
    int material = 0;
    double level = 0;  // ((R + O) / 2 - 1500) / 400
    bool zero_eval = false;
};

struct HumanCell {
    std::uint32_t unit = 0;
    int group = 0;
    int cp = 0;  // the key's binned eval: displayed centipawns from the side to move's view
    int rating = 0, opponent_rating = 0;
    std::array<double, 3> outcomes{};  // positions won, drawn, lost by the side to move

    double positions() const { return outcomes[0] + outcomes[1] + outcomes[2]; }
    Situation situation(const HumanUnit& at) const {
        return {double(at.material), double(rating), double(opponent_rating)};
    }
};

struct HumanData {
    counts::SpeedClass speed = counts::SpeedClass::Rapid;
    // The groups of the file that hold this class's positions, numbered 0 .. groups - 1 in the
    // file's order.
    int groups = 1;
    std::vector<HumanUnit> units;
    std::vector<HumanCell> cells;
    double positions = 0;                // in the cells
    double mate_positions = 0;           // left out: keys of a mate score
    int rating_min = 0, rating_max = 0;  // of the side to move, over the cells (bin centres)
    // Groups holding positions.
    int groups_with_positions() const;
};

// The count file's positions, one HumanData per speed class that has any, in the classes' order.
std::vector<HumanData> human_data_by_speed(const counts::HumanCounts& counts);

// Bytes a count file's cell takes while it is read and fitted: 16 while its outcomes are
// gathered across move numbers (which the fit does not read), 48 as the fit's cell, and room
// for the vectors' growth (measured peaks: docs/human-games.md, "Memory").
inline constexpr std::size_t kBytesPerCountCell = 72;

// A count file read within a memory limit. When its cells (the header's count, at
// kBytesPerCountCell each) would not fit, only its first groups are kept: a group is a hash
// of whole games, so what is kept is a random sample of the games, and every error bar is
// still over whole groups.
struct HumanDataRead {
    std::vector<HumanData> by_speed;
    int groups = 1;       // the file's
    int groups_kept = 1;  // its groups 0 .. groups_kept - 1
    double positions_left_out = 0;
    bool complete() const { return groups_kept == groups; }
};
// Throws wdl::Error naming the file for a file humanWDL cannot read, and when the limit holds
// fewer than 2 groups' cells.
HumanDataRead read_human_data(const std::filesystem::path& file, std::size_t memory_limit_bytes);

}  // namespace wdl::human
