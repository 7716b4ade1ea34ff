#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "wdl/counts/cell_runs.hpp"
#include "wdl/counts/count_map.hpp"
#include "wdl/counts/position_key.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/enum_names.hpp"

// Counts of human games (docs/human-games.md): a counted position's key gains both players'
// ratings and the game's speed class, since the same eval means another chance of winning for
// two 1200s in a blitz game than for two 2500s in a classical one.
namespace wdl::counts {

// lichess's speed classes, from the estimated duration base + 40 x increment seconds:
// below 30 UltraBullet, below 180 Bullet, below 480 Blitz, below 1500 Rapid, else Classical;
// a TimeControl of "-" (no clock) is Correspondence.
enum class SpeedClass : std::uint8_t {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence
};

inline constexpr int kSpeedClasses = 6;

inline constexpr std::array<util::EnumName<SpeedClass>, kSpeedClasses> kSpeedClassNames{{
    {SpeedClass::UltraBullet, "ultraBullet"},
    {SpeedClass::Bullet, "bullet"},
    {SpeedClass::Blitz, "blitz"},
    {SpeedClass::Rapid, "rapid"},
    {SpeedClass::Classical, "classical"},
    {SpeedClass::Correspondence, "correspondence"},
}};

// "ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence" (lichess's spelling).
std::string_view speed_class_name(SpeedClass speed);
std::optional<SpeedClass> speed_class_from_name(std::string_view name);
// The class of a PGN TimeControl tag ("600+5", "180", "-"); nothing for a tag of another form.
std::optional<SpeedClass> speed_class_of_time_control(std::string_view time_control);

// Ratings are kept in bins of this width, as the bin's centre (1525 for 1500..1549): a Glicko-2
// rating's deviation is rarely below 45 for an active player, so finer bins carry no information.
inline constexpr int kRatingBinWidth = 50;
int bin_rating(int rating);
// Ratings a human-games count keeps: 0 .. kRatingLimit - 1 (lichess's lie within 400 .. 3500).
inline constexpr int kRatingLimit = 6400;

// One cell of a human-games scan: the position's key (result of the side to move, full-move
// number, material, binned eval from the side to move's view), the side to move's rating and
// its opponent's (binned), and the game's speed class.
struct HumanKey {
    PositionKey position;
    int rating = 0;
    int opponent_rating = 0;
    SpeedClass speed = SpeedClass::Rapid;

    friend bool operator==(const HumanKey&, const HumanKey&) = default;
};

struct HumanCell {
    HumanKey key;
    int group = 0;  // the game group (0 .. groups - 1), as --groups hashes games
    std::uint64_t count = 0;
};

// A human-games count file's content: cells with a count, each (key, group) once, in the
// writer's order (ascending by position key, rating, opponent's rating, speed, then group).
struct HumanCounts {
    int groups = 1;
    std::vector<HumanCell> cells;

    std::uint64_t total_count() const;
};

// A (key, group) packed into one number for a CountMap (never CountMap's empty key), whose
// order is the writer's: result 2 bits, move 10, material 8, eval 11 (+1024), each rating 7
// (its bin's number), speed 3, group 16, from the most significant. Whether a key and group
// fit: move below 1024, group below 65536, and the key's other fields as a scan gives them.
inline constexpr int kMaxPackedHumanGroups = 1 << 16;
bool human_packable(const HumanKey& key, int group);
std::uint64_t pack_human_cell(const HumanKey& key, int group);
HumanCell unpack_human_cell(std::uint64_t packed, std::uint64_t count);

inline constexpr std::string_view kHumanCountsFormat = "wdlfit-human-counts";

// Written atomically (a cell of count 0 is left out, the others in the writer's order); read
// back exactly. Throws wdl::Error naming the file (and the line) on a file that is unreadable,
// of another kind or version, malformed, cut short, or lists a (key, group) twice. The file
// announces its kind on its first line, so that the programs that read plain or grouped count files
// refuse it with a message naming it (docs/formats.md, "Human-games count files").
void write_human_counts(const std::filesystem::path& file, const HumanCounts& counts);
// The same into an output opened by the caller (so that a bad path fails before a long scan),
// which it commits.
void write_human_counts(const HumanCounts& counts, util::AtomicFile& output);
// The same of counts by packed (key, group) (pack_human_cell), of `groups` groups: a scan's
// hundreds of millions of cells written without a copy of each as a HumanCell.
void write_human_counts(const CountMap& packed_counts, int groups, util::AtomicFile& output);
// The same of runs of such counts on disk, merged straight into the file (a pass to count the
// cells the header announces, then one to write them). Returns the number of cells written.
std::size_t write_human_counts(CellRuns& packed_runs, int groups, util::AtomicFile& output);
HumanCounts read_human_counts(const std::filesystem::path& file);
// The same checks, streaming: the header's groups and cells to `begin`, then every cell to
// `visit` in the file's order, one line in memory at a time (a reader that keeps less than
// every cell: humanWDL within its memory limit). A fault found after some cells were visited
// still throws.
void visit_human_counts(const std::filesystem::path& file,
                        const std::function<void(int groups, std::size_t cells)>& begin,
                        const std::function<void(const HumanCell&)>& visit);
// Whether a file is a human-games count file (by its first bytes, compressed or not).
bool is_human_count_file(const std::filesystem::path& file);
// Whether a file's first bytes (decompressed) are those of a human-games count file.
bool begins_as_human_counts(std::string_view first_bytes);

}  // namespace wdl::counts
