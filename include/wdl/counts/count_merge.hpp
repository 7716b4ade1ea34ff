#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/counts/group_labels.hpp"
#include "wdl/counts/grouped_counts.hpp"
#include "wdl/counts/grouping.hpp"

// Adding count files: the shards of one scan, or scans of different corpora (mergeWDLstat).
// Counts add exactly, so the sum of the shards of a scan is the scan of the whole corpus.
namespace wdl::counts {

// What one input held.
struct MergedInput {
    std::filesystem::path file;
    std::optional<Grouping> grouping;  // none: a plain file
    std::optional<GroupLabels> labels;
    std::size_t keys = 0;  // distinct keys, their groups left aside
    std::uint64_t positions = 0;
    // The greatest common divisor of its non-mate evals (0 when none): the scan's bin width,
    // or a multiple of it when few keys are seen.
    int eval_step = 0;
    std::size_t distinct_evals = 0;  // non-mate, non-zero: how much the eval step can be trusted
    std::vector<std::string> repeated_keys;  // as read_count_file reports them
};

// With this many distinct evals, all multiples of a step s, a file binned at a width w < s
// would show them by a chance of at most (w/s)^16 <= 1.5e-5.
inline constexpr std::size_t kTrustedDistinctEvals = 16;

struct MergedCounts {
    std::vector<MergedInput> inputs;
    std::optional<Grouping> grouping;  // the inputs' common groups; none when all are plain
    // Of labelled inputs: every unit of every input once, in order of id (docs/formats.md).
    std::optional<GroupLabels> labels;
    PositionCounts counts;  // grouped when the inputs are
    std::uint64_t positions = 0;
    int bin_width = 0;  // the inputs' common eval step (or the asserted one); 0 when unknown
};

// Reads every file (plain or grouped, .gz/.zst too) and adds their counts. Labelled files
// (whose groups keep units such as tests apart) are merged unit by unit: the result has every
// unit of the inputs once, in order of id, a unit in several inputs with its counts added
// group by group. An empty plain file (a scan that kept nothing) merges with files of any kind.
// Throws wdl::Error naming the file on a file that cannot be read (read_count_file's errors),
// on plain and grouped files mixed, on grouped files with different groups (for labelled
// files: different groups per unit or groupBy, or one unit labelled differently in two
// files), on labelled and unlabelled files mixed, on evals binned differently,
// and on sums beyond the 63 bits count files hold. Evals are binned differently when a file
// with at least kTrustedDistinctEvals distinct evals has an eval step other than the greatest
// common divisor of all the files' steps (a file of few evals may have a coarser step by
// chance); with `bin_width` asserted, when an eval is not a multiple of it.
MergedCounts merge_count_files(const std::vector<std::filesystem::path>& files,
                               std::optional<int> bin_width = std::nullopt);

}  // namespace wdl::counts
