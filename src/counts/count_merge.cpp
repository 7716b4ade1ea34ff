#include "wdl/counts/count_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>

#include "wdl/counts/count_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::counts {
namespace {

constexpr std::uint64_t kMaxCount = std::uint64_t(std::numeric_limits<std::int64_t>::max());

std::string kind_of(const MergedInput& input) {
    if (!input.grouping) return "a plain count file";
    if (input.labels) {
        return fmt::format("a labelled grouped count file ({} units of {} groups by {})",
                           input.labels->units.size(), input.labels->groups_per_label,
                           group_by_name(input.grouping->by));
    }
    return "a grouped count file (" + describe(*input.grouping) + ")";
}

// What one file holds, and its counts.
std::pair<MergedInput, PositionCounts> read_input(const std::filesystem::path& file) {
    MergedInput input;
    input.file = file;
    struct GroupedEntry {
        std::uint64_t key;
        int group;
        std::uint64_t count;
    };
    // Whether the file is grouped is known only at its end: its counts wait until then.
    std::vector<GroupedEntry> entries;
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
    input.labels = std::move(report.labels);
    input.repeated_keys = std::move(report.repeated_keys);
    input.eval_step = step;
    PositionCounts own(input.grouping);
    for (const GroupedEntry& entry : entries) own.add(entry.key, entry.group, entry.count);
    entries = {};
    own.for_each([&](std::uint64_t, int, std::uint64_t count) {
        if (count > kMaxCount || input.positions + count > kMaxCount)
            throw Error(file.string() + ": its counts add up to more than 2^63 - 1.");
        input.positions += count;
    });
    input.keys = own.distinct_keys();
    return {std::move(input), std::move(own)};
}

// Labelled files go together when their units are made alike; others when their groups are.
void check_kind(const MergedInput& first, const MergedInput& input) {
    bool alike =
        input.labels.has_value() == first.labels.has_value() &&
        (input.labels ? input.grouping->by == first.grouping->by &&
                            input.labels->groups_per_label == first.labels->groups_per_label
                      : input.grouping == first.grouping);
    if (alike) return;
    throw Error(fmt::format("cannot merge {} ({}) with {} ({}).", input.file.string(),
                            kind_of(input), first.file.string(), kind_of(first)));
}

// A plain file without counts: what a scan that kept nothing writes.
bool holds_nothing(const MergedInput& input) { return !input.grouping && input.positions == 0; }

// The labelled inputs' counts in the union of their units, ordered by id.
PositionCounts merge_units(const std::vector<MergedInput>& inputs,
                           const std::vector<PositionCounts>& parts, GroupLabels& merged_labels) {
    std::map<std::string, std::pair<const GroupLabel*, const MergedInput*>> units;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const MergedInput& input = inputs[i];
        for (const auto& label : input.labels->units) {
            auto [place, added] = units.try_emplace(label.id, &label, &input);
            if (!added && !(*place->second.first == label))
                throw Error(fmt::format("{} and {} label unit \"{}\" differently.",
                                        place->second.second->file.string(), input.file.string(),
                                        label.id));
        }
    }
    const int per_label = inputs.front().labels->groups_per_label;
    merged_labels.groups_per_label = per_label;
    std::map<std::string, int> number_of;
    for (const auto& [id, unit] : units) {
        number_of[id] = int(merged_labels.units.size());
        merged_labels.units.push_back(*unit.first);
    }
    if (merged_labels.group_count() > kMaxGroups)
        throw Error(fmt::format("the merged files have {} units of {} groups: more than {} groups.",
                                merged_labels.units.size(), per_label, kMaxGroups));
    PositionCounts merged(Grouping{inputs.front().grouping->by, int(merged_labels.group_count())});
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::vector<int> first_group;
        for (const auto& label : inputs[i].labels->units)
            first_group.push_back(number_of[label.id] * per_label);
        merged.grouped->reserve_like(*parts[i].grouped);
        parts[i].for_each([&](std::uint64_t key, int group, std::uint64_t count) {
            merged.add(key, first_group[std::size_t(group / per_label)] + group % per_label, count);
        });
    }
    return merged;
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
    std::optional<std::size_t> kind;  // the first input that holds counts
    // Labelled inputs wait until all their units are known; the others add up as they come.
    std::vector<MergedInput> labelled_inputs;
    std::vector<PositionCounts> labelled_parts;
    for (const auto& file : files) {
        auto [input, own] = read_input(file);
        merged.inputs.push_back(input);
        if (holds_nothing(input)) continue;
        if (kind) {
            check_kind(merged.inputs[*kind], input);
        } else {
            kind = merged.inputs.size() - 1;
        }
        if (input.labels) {
            labelled_inputs.push_back(std::move(input));
            labelled_parts.push_back(std::move(own));
        } else if (merged.counts.grouped || merged.counts.plain.distinct_keys() != 0) {
            merged.counts.merge(own);
        } else {
            merged.counts = std::move(own);
        }
        std::uint64_t positions = merged.inputs.back().positions;
        if (merged.positions + positions > kMaxCount)
            throw Error(file.string() + ": the merged counts add up to more than 2^63 - 1.");
        merged.positions += positions;
    }
    if (!labelled_parts.empty()) {
        merged.labels.emplace();
        merged.counts = merge_units(labelled_inputs, labelled_parts, *merged.labels);
    }
    merged.grouping =
        merged.counts.grouped ? std::optional(merged.counts.grouped->grouping()) : std::nullopt;
    merged.bin_width = common_bin_width(merged.inputs, bin_width);
    return merged;
}

}  // namespace wdl::counts
