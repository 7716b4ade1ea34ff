#include "wdl/counts/count_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "wdl/counts/count_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::counts {
namespace {

constexpr std::uint64_t kMaxCount = std::uint64_t(std::numeric_limits<std::int64_t>::max());

std::string kind_of(const std::optional<Grouping>& grouping) {
    if (!grouping) return "a plain count file";
    return "a grouped count file (" + describe(*grouping) + ")";
}

// What one file holds, and its counts.
std::pair<MergedInput, PositionCounts> read_input(const std::filesystem::path& file) {
    MergedInput input;
    input.file = file;
    struct Entry {
        std::uint64_t key;
        int group;
        std::uint64_t count;
    };
    // Whether the file is grouped is known only at its end: its counts wait until then.
    std::vector<Entry> entries;
    int step = 0;
    std::vector<bool> seen_evals(2 * kMaxEval + 1);
    // Plain files may pass negative corrections for repeated keys: modular sums stay exact,
    // and only the file's final counts are checked against the 63-bit limit.
    auto report =
        read_grouped_count_file(file, [&](int group, const PositionKey& key, std::int64_t count) {
            if (!packable(key))
                throw Error(
                    fmt::format("{}: key \"{}\" is outside what count files hold (move "
                                "0-65535, material 0-255, eval -32768-32767).",
                                file.string(), format_key(key)));
            entries.push_back({pack_key(key), group, std::uint64_t(count)});
            if (key.eval == kMateEval || key.eval == -kMateEval || key.eval == 0) return;
            step = std::gcd(step, key.eval);
            if (std::abs(key.eval) <= kMaxEval) seen_evals[std::size_t(key.eval + kMaxEval)] = true;
        });
    input.distinct_evals = std::size_t(std::count(seen_evals.begin(), seen_evals.end(), true));
    input.grouping = report.grouping;
    input.repeated_keys = std::move(report.repeated_keys);
    input.eval_step = step;
    PositionCounts own(input.grouping);
    for (const Entry& entry : entries) own.add(entry.key, entry.group, entry.count);
    entries = {};
    own.for_each([&](std::uint64_t, int, std::uint64_t count) {
        if (count > kMaxCount || input.positions + count > kMaxCount)
            throw Error(file.string() + ": its counts add up to more than 2^63 - 1.");
        input.positions += count;
    });
    input.keys = own.distinct_keys();
    return {std::move(input), std::move(own)};
}

void check_kind(const MergedInput& first, const MergedInput& input) {
    if (input.grouping == first.grouping) return;
    throw Error(fmt::format("cannot merge {} ({}) with {} ({}).", input.file.string(),
                            kind_of(input.grouping), first.file.string(), kind_of(first.grouping)));
}

// The common bin width of the inputs: the greatest common divisor of their eval steps, which
// every file with enough evals to tell must show (or a multiple of the asserted width).
int common_bin_width(const std::vector<MergedInput>& inputs, std::optional<int> bin_width) {
    if (bin_width) {
        for (const auto& input : inputs)
            if (input.eval_step % *bin_width != 0)
                throw Error(
                    fmt::format("{}: its evals are not all multiples of --binWidth {} "
                                "(their greatest common divisor is {}).",
                                input.file.string(), *bin_width, input.eval_step));
        return *bin_width;
    }
    int common = 0;
    for (const auto& input : inputs) common = std::gcd(common, input.eval_step);
    for (const auto& input : inputs) {
        if (input.eval_step == common || input.distinct_evals < kTrustedDistinctEvals) continue;
        // Some other file's step is not the trusted file's: else theirs would be the divisor.
        auto other = std::find_if(inputs.begin(), inputs.end(), [&](const MergedInput& candidate) {
            return candidate.eval_step != 0 && candidate.eval_step != input.eval_step;
        });
        throw Error(fmt::format(
            "{} and {} bin their evals differently (multiples of {} against {}); if they come "
            "from scans with one bin width, say which with --binWidth.",
            other->file.string(), input.file.string(), other->eval_step, input.eval_step));
    }
    return common;
}

}  // namespace

MergedCounts merge_count_files(const std::vector<std::filesystem::path>& files,
                               std::optional<int> bin_width) {
    if (files.empty()) throw Error("no count files to merge.");
    if (bin_width && *bin_width < 1) throw Error("--binWidth must be at least 1.");
    MergedCounts merged;
    for (const auto& file : files) {
        auto [input, own] = read_input(file);
        merged.inputs.push_back(std::move(input));
        check_kind(merged.inputs.front(), merged.inputs.back());
        if (merged.inputs.size() == 1) {
            merged.counts = std::move(own);
        } else {
            merged.counts.merge(own);
        }
        std::uint64_t positions = merged.inputs.back().positions;
        if (merged.positions + positions > kMaxCount)
            throw Error(file.string() + ": the merged counts add up to more than 2^63 - 1.");
        merged.positions += positions;
    }
    merged.grouping = merged.inputs.front().grouping;
    merged.bin_width = common_bin_width(merged.inputs, bin_width);
    return merged;
}

}  // namespace wdl::counts
