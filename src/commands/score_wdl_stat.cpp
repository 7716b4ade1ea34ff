#include "wdl/commands/score_wdl_stat.hpp"

#include <re2/re2.h>

#include <chrono>
#include <iostream>

#include "wdl/counts/count_file.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/scan/fix_fen.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/scan/scan_report.hpp"
#include "wdl/scan/scanner.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;

// The files found, and those of them that the shard and the filters select.
struct FileSelection {
    std::vector<fs::path> listed;
    std::vector<fs::path> selected;
};

FileSelection select_files(const ScoreWdlStatOptions& options, const scan::FileFilter& filter) {
    FileSelection selection;
    selection.listed = scan::find_game_files(options.source, std::cout);
    std::cout << "Found " << selection.listed.size() << " .pgn(.gz) files in total." << std::endl;
    auto files = selection.listed;
    if (options.shard) {
        auto root = options.source.file || options.source.file_list ? std::filesystem::path()
                                                                    : options.source.dir;
        files = scan::shard_files(files, root, *options.shard);
        std::cout << "Shard " << options.shard->index << "/" << options.shard->count << ": "
                  << files.size() << " of " << selection.listed.size() << " files." << std::endl;
    }
    if (files.empty()) return selection;
    std::vector<std::string> metadata_warnings;
    auto metadata = fishtest::load_metadata(files, metadata_warnings);
    for (const auto& warning : metadata_warnings) std::cerr << warning << std::endl;
    selection.selected = filter.apply(std::move(files), metadata, std::cout);
    return selection;
}

// Paths of game files are taken relative to this folder for the groups of their games (none:
// the paths as --fileList lists them).
fs::path grouping_base(const ScoreWdlStatOptions& options) {
    if (options.source.file_list) return {};
    return options.source.file ? options.source.file->parent_path() : options.source.dir;
}

std::string grouping_line(const counts::Grouping& grouping) {
    return grouping.by == counts::GroupBy::Test
               ? "The counts are split into " + std::to_string(grouping.groups) +
                     " groups by fishtest test (the tests in order of their ids, one group each, "
                     "round robin)."
               : "The counts are split into " + std::to_string(grouping.groups) +
                     " groups by game (a hash of each game's file and place in it).";
}

}  // namespace

void score_wdl_stat(const ScoreWdlStatOptions& options) {
    scan::FileFilter filter(options.filters);
    auto engine_filter = scan::compile_engine_filter(
        scan::engine_filter_pattern(options.match_engine, options.filters.match_rev));
    auto selection = select_files(options, filter);
    // An empty shard is no error: its count file, empty, still merges with the others.
    if (selection.listed.empty() && !options.source.file) {
        throw Error("no .pgn, .pgn.gz or .pgn.zst files in " + options.source.dir.string() +
                    (options.source.recursive ? "" : " (use -r to search subdirectories)"));
    }
    std::optional<scan::FixFenTable> fix_fen;
    if (options.fix_fen_source) fix_fen = scan::FixFenTable::load(*options.fix_fen_source);
    std::optional<scan::GameGrouping> grouping;
    const auto& files = selection.selected;
    if (options.grouping)
        grouping.emplace(*options.grouping, files, grouping_base(options), selection.listed);

    scan::ScanSettings settings;
    settings.threads = options.concurrency;
    settings.rules.bin_width = options.bin_width;
    settings.rules.eval_parsing = options.eval_parsing;
    settings.rules.engine_filter = engine_filter.get();
    settings.rules.fix_fen = fix_fen ? &*fix_fen : nullptr;
    settings.rules.grouping = grouping ? &*grouping : nullptr;

    // Opened now so that an unwritable output path fails before a long scan, not after it.
    util::AtomicFile output(options.output);
    std::cout << "Scanning " << files.size() << " files with " << settings.threads << " threads."
              << std::endl;
    scan::ReadProgress progress;
    auto start = std::chrono::steady_clock::now();
    scan::ScanResult result;
    {
        std::uint64_t bytes = scan::total_file_bytes(files);
        util::ProgressTicker ticker([&](double seconds) {
            return scan::describe_progress(progress, files.size(), bytes, seconds);
        });
        result = scan::scan_files(files, settings, &progress);
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

    for (const auto& warning : result.files.warnings) std::cerr << warning << std::endl;
    if (!files.empty() && result.files.files_unreadable == files.size())
        throw Error("none of the " + std::to_string(files.size()) + " files could be read.");
    std::cout << "Time taken: " << elapsed.count() << "s" << std::endl;
    std::cout << scan::format_scan_summary(result, elapsed.count());
    counts::write_counts(result.counts, output);
    std::cout << "Wrote " << result.tally.positions << " scored positions from "
              << result.tally.games_accepted << " games to " << options.output.string()
              << " for analysis." << std::endl;
    if (options.grouping) std::cout << grouping_line(*options.grouping) << std::endl;
    if (options.json) {
        auto json = scan::scan_summary_json(result, elapsed.count());
        json["output"] = options.output.string();
        if (options.grouping) {
            json["grouping"] = {{"groupBy", counts::group_by_name(options.grouping->by)},
                                {"groups", options.grouping->groups}};
        }
        util::write_file_atomically(*options.json, json.dump(2) + "\n");
    }
}

}  // namespace wdl::commands
