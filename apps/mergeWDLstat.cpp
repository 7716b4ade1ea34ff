// mergeWDLstat: adds count files (shards of one scan, or several scans) into one.
#include <CLI/CLI.hpp>

#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "wdl/commands/merge_wdl_stat.hpp"
#include "wdl/util/error.hpp"

int wdl::programs::mergeWDLstat(int argc, char** argv) {
    CLI::App app(
        "Add count files of scoreWDLstat (plain or grouped, .gz/.zst too) into one, exactly: "
        "the shards of a scan (scoreWDLstat --shard I/N or --fileList) merge into the file the "
        "whole scan writes. Plain and grouped files do not mix, grouped files must have the "
        "same groups, and the inputs' evals must be binned alike.",
        "mergeWDLstat");
    wdl::commands::MergeWdlStatOptions options;
    app.add_option("inputs", options.inputs, "Count files to add (at least one)")->required();
    app.add_option("-o,--output", options.output,
                   "The merged count file, written atomically (default: scoreWDLstat.json, "
                   "what scoreWDL reads by default)");
    app.add_option("--binWidth", options.bin_width,
                   "The bin width the inputs were scanned with. Default: inferred as the "
                   "greatest common divisor of each file's evals, and files whose divisors "
                   "differ are refused; with this option, every eval must be a multiple of it")
        ->check(number_checks::positive());
    app.add_option("--json", options.json,
                   "Also write the summary (each input's keys, positions, groups and eval step; "
                   "the merged totals) as JSON to this file");
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::merge_wdl_stat(options);
        return 0;
    });
}
