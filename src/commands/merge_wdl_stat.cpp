#include "wdl/commands/merge_wdl_stat.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "wdl/counts/count_file.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::commands {
namespace {

std::string kind_text(const std::optional<counts::Grouping>& grouping) {
    if (!grouping) return "plain";
    return "grouped, " + counts::describe(*grouping);
}

nlohmann::json grouping_json(const std::optional<counts::Grouping>& grouping) {
    if (!grouping) return nullptr;
    return {{"groups", grouping->groups}, {"groupBy", counts::group_by_name(grouping->by)}};
}

nlohmann::json summary_json(const counts::MergedCounts& merged,
                            const std::filesystem::path& output) {
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& input : merged.inputs) {
        inputs.push_back({{"file", input.file.string()},
                          {"grouping", grouping_json(input.grouping)},
                          {"keys", input.keys},
                          {"positions", input.positions},
                          {"evalStep", input.eval_step},
                          {"distinctEvals", input.distinct_evals},
                          {"repeatedKeys", input.repeated_keys.size()}});
    }
    return {{"inputs", inputs},
            {"output", output.string()},
            {"grouping", grouping_json(merged.grouping)},
            {"keys", merged.counts.distinct_keys()},
            {"positions", merged.positions},
            {"binWidth", merged.bin_width}};
}

// Distinct keys of the merged counts, their groups left aside.
std::size_t distinct_plain_keys(const counts::MergedCounts& merged) {
    if (!merged.grouping) return merged.counts.distinct_keys();
    counts::CountMap plain;
    merged.counts.for_each([&](std::uint64_t key, std::uint64_t count) {
        plain.add(counts::without_group(key), count);
    });
    return plain.distinct_keys();
}

}  // namespace

void merge_wdl_stat(const MergeWdlStatOptions& options) {
    // Opened first, so that a bad output path fails before any reading.
    util::AtomicFile output(options.output);
    auto merged = counts::merge_count_files(options.inputs, options.bin_width);
    for (const auto& input : merged.inputs) {
        for (const auto& line : counts::repeated_key_warnings(input.file, input.repeated_keys))
            fmt::print("{}\n", line);
        fmt::print("Read {}: {} keys, {} positions ({}).\n", input.file.string(), input.keys,
                   input.positions, kind_text(input.grouping));
    }
    if (merged.grouping)
        counts::write_grouped_count_file(merged.counts, *merged.grouping, output);
    else
        counts::write_count_file(merged.counts, output);
    std::string bin_width =
        merged.bin_width ? fmt::format("evals in steps of {}", merged.bin_width) : "no evals";
    fmt::print("Merged {} count files ({}; {}) into {}: {} keys, {} positions.\n",
               merged.inputs.size(), kind_text(merged.grouping), bin_width, options.output.string(),
               distinct_plain_keys(merged), merged.positions);
    if (options.json)
        util::write_file_atomically(*options.json, summary_json(merged, options.output).dump(2));
}

}  // namespace wdl::commands
