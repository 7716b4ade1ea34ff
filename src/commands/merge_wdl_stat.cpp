#include "wdl/commands/merge_wdl_stat.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "wdl/counts/count_file.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/util/atomic_file.hpp"

namespace wdl::commands {
namespace {

std::string kind_text(const std::optional<counts::Grouping>& grouping,
                      const std::optional<counts::GroupLabels>& labels) {
    if (!grouping) return "plain";
    std::string text = "grouped, " + counts::describe(*grouping);
    if (labels) text += fmt::format(", {} labelled units", labels->units.size());
    return text;
}

nlohmann::json grouping_json(const std::optional<counts::Grouping>& grouping,
                             const std::optional<counts::GroupLabels>& labels) {
    if (!grouping) return nullptr;
    nlohmann::json json = {{"groups", grouping->groups},
                           {"groupBy", counts::group_by_name(grouping->by)}};
    if (labels) json["labelledUnits"] = labels->units.size();
    return json;
}

nlohmann::json summary_json(const counts::MergedCounts& merged, std::size_t keys,
                            const std::filesystem::path& output) {
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& input : merged.inputs) {
        inputs.push_back({{"file", input.file.string()},
                          {"grouping", grouping_json(input.grouping, input.labels)},
                          {"keys", input.keys},
                          {"positions", input.positions},
                          {"evalStep", input.eval_step},
                          {"distinctEvals", input.distinct_evals},
                          {"repeatedKeys", input.repeated_keys.size()}});
    }
    return {{"inputs", inputs},
            {"output", output.string()},
            {"grouping", grouping_json(merged.grouping, merged.labels)},
            {"keys", keys},
            {"positions", merged.positions},
            {"binWidth", merged.bin_width}};
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
                   input.positions, kind_text(input.grouping, input.labels));
    }
    counts::write_counts(merged.counts, output, merged.labels ? &*merged.labels : nullptr);
    std::size_t keys = merged.counts.distinct_keys();
    std::string bin_width =
        merged.bin_width ? fmt::format("evals in steps of {}", merged.bin_width) : "no evals";
    fmt::print("Merged {} count files ({}; {}) into {}: {} keys, {} positions.\n",
               merged.inputs.size(), kind_text(merged.grouping, merged.labels), bin_width,
               options.output.string(), keys, merged.positions);
    if (options.json)
        util::write_file_atomically(*options.json,
                                    summary_json(merged, keys, options.output).dump(2));
}

}  // namespace wdl::commands
