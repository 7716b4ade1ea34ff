#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/count_map.hpp"
#include "wdl/counts/group_labels.hpp"
#include "wdl/counts/grouped_counts.hpp"
#include "wdl/counts/grouping.hpp"
#include "wdl/counts/position_key.hpp"
#include "wdl/util/atomic_file.hpp"

// Count files: the scanner's output and the fitter's input (docs/formats.md). Plain, .gz or .zst.
// A plain count file is a JSON object {"('W', move, material, eval)": count, ...}. A grouped
// count file (scoreWDLstat --groups K) holds the counts of K groups of games, whose sum over the
// groups is the plain count file of the same scan. Version 2, which the programs write, is a
// header line of JSON and then the counts key by key in binary blocks:
//   {"format": "wdlfit-grouped-counts", "version": 2, "groupBy": "game", "groups": K, ...}
// Version 1, still read, is JSON:
//   {"format": "wdlfit-grouped-counts", "version": 1, "groupBy": "game", "groups": K,
//    "keys": ["('D', 1, 78, -5)", ...],           every key once
//    "counts": [[0, 12, 5, 1, ...], ..., [...]]}   per group: key number, count, ...
// Either may name what unit (test) each k groups are:
//    "labels": {"groupsPerLabel": k, "units": [...]}   (group_labels.hpp)
// Every reader takes all of them.
namespace wdl::counts {

inline constexpr std::string_view kGroupedFormat = "wdlfit-grouped-counts";
inline constexpr int kJsonGroupedFormatVersion = 1;
inline constexpr int kCompactGroupedFormatVersion = 2;

using CountSink = std::function<void(const PositionKey&, std::int64_t)>;
// For each key of each group: its group (0 for every key of a plain file), key and count.
using GroupedCountSink = std::function<void(int group, const PositionKey&, std::int64_t)>;

struct CountFileReport {
    // Keys a plain file gives more than once, once per repetition, as spelled in the file.
    std::vector<std::string> repeated_keys;
    // A grouped file's groups; none for a plain file.
    std::optional<Grouping> grouping;
    // A grouped file's labels of the units its groups keep apart, if it has them.
    std::optional<GroupLabels> labels;
};

// Calls sink once for every key of the file (for every count of every group of a grouped
// file: the sink then sees the sum of the groups), in no particular order, one call at a time
// (not always on the calling thread: a large grouped file is decoded in two pieces at once). A key
// given more than once in a plain file keeps its last count (as Python's json.load does) and is
// reported; the counts of a grouped file add up. A file holding just `null` (what the
// original scanner writes when it counted nothing) is empty. Throws wdl::Error naming the file
// (and the key) on an unreadable file, malformed JSON, a key not of the form
// ('W', move, material, eval) (numbers as Python literals), a count that is negative, not an
// integer or beyond 64 bits, or a grouped file that is not of version 1 or 2 of the format, is
// damaged or whose header, keys and counts do not agree.
CountFileReport read_count_file(const std::filesystem::path& path, const CountSink& sink);

// The warnings for a file's repeated keys (CountFileReport::repeated_keys): a line for each of
// the first ten, then one line for the rest.
std::vector<std::string> repeated_key_warnings(const std::filesystem::path& file,
                                               const std::vector<std::string>& repeated_keys);

// read_count_file with the group of each count.
CountFileReport read_grouped_count_file(const std::filesystem::path& path,
                                        const GroupedCountSink& sink);

// Counts that a large file can be read into on two threads at once: each half of the file
// goes into a blank copy of the target, and the copies are merged into it at the end.
class CountTarget {
  public:
    virtual ~CountTarget() = default;
    virtual void add(const PositionKey& key, std::int64_t count) = 0;
    // A count of one group of a grouped file; by default added as any other count.
    virtual void add_to_group(int group, const PositionKey& key, std::int64_t count) {
        (void)group;
        add(key, count);
    }
    // A key's counts in several groups of a grouped file, counts[i] in groups[i]; by default
    // add_to_group for each. (A target may take the key once for all its groups.)
    virtual void add_to_groups(const PositionKey& key, std::span<const int> groups,
                               std::span<const std::int64_t> counts) {
        for (std::size_t i = 0; i < groups.size(); ++i) add_to_group(groups[i], key, counts[i]);
    }
    virtual std::unique_ptr<CountTarget> blank_copy() const = 0;
    // Adds the counts of a target made by blank_copy.
    virtual void merge(const CountTarget& part) = 0;
};

// read_count_file into a target (add_to_group or add_to_groups for the counts of a grouped
// file). A file in the scanners' own layout, or any large plain file whose keys are in order,
// is read in two pieces on two threads; any other in one piece. The sinks above are read
// this way too, each piece's counts passed on when it is done.
CountFileReport read_count_file(const std::filesystem::path& path, CountTarget& target);

// The counts in the scanners' spelling: keys "('W', 12, 62, 35)" in sorted order, two-space
// indent; "{}" when empty.
std::string count_file_text(const CountMap& counts);

// Writes count_file_text into the output (formatted on up to `threads` threads) and commits it;
// throws wdl::Error naming the file on failure. The output is opened by the caller, so that a
// bad path fails before a long scan.
void write_count_file(const CountMap& counts, util::AtomicFile& output, int threads = 1);

// The grouped count file of the counts (version 2): the header line (with the labels, when
// given: as many groups as they name), then the counts key by key in blocks encoded on up to
// `threads` threads. The bytes do not depend on the threads.
std::string grouped_count_file_bytes(const GroupedCounts& grouped_counts,
                                     const GroupLabels* labels = nullptr, int threads = 1);

// Writes grouped_count_file_bytes into the output and commits it, as write_count_file.
void write_grouped_count_file(const GroupedCounts& grouped_counts, util::AtomicFile& output,
                              const GroupLabels* labels = nullptr, int threads = 1);

// A plain or a grouped count file (labelled when labels are given), as the counts are.
void write_counts(const PositionCounts& counts, util::AtomicFile& output,
                  const GroupLabels* labels = nullptr, int threads = 1);

}  // namespace wdl::counts
