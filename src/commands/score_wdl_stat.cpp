#include "wdl/commands/score_wdl_stat.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <iostream>

#include "wdl/counts/count_file.hpp"
#include "wdl/games/engine_filter.hpp"
#include "wdl/games/fix_fen.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/scan/scan_report.hpp"
#include "wdl/scan/scan_summary.hpp"
#include "wdl/scan/scanner.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;

// Paths of game files are taken relative to this folder for the groups of their games (none:
// the paths as --fileList lists them).
fs::path grouping_base(const ScoreWdlStatOptions& options) {
    if (options.games.source.file_list) return {};
    return options.games.source.file ? options.games.source.file->parent_path()
                                     : options.games.source.dir;
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
    games::FileFilter filter(options.games.filters);
    auto engine_filter = games::compile_engine_filter(
        games::engine_filter_pattern(options.match_engine, options.games.filters.match_rev));
    // An empty shard is no error: its count file, empty, still merges with the others.
    auto selection = games::select_game_files(options.games, filter, std::cout, std::cerr);
    std::optional<games::FixFenTable> fix_fen;
    if (options.fix_fen_source) fix_fen = games::FixFenTable::load(*options.fix_fen_source);
    std::optional<scan::GameGrouping> grouping;
    std::optional<counts::GroupLabels> labels;
    const auto& files = selection.selected;
    if (options.per_test && !files.empty()) {
        // Without files there is no unit to label: the empty plain file merges with any.
        grouping.emplace(scan::GameGrouping::per_test(
            options.grouping ? options.grouping->groups : 1, files, grouping_base(options)));
        labels = grouping->test_labels(files, selection.metadata);
    } else if (options.grouping && !options.per_test) {
        grouping.emplace(*options.grouping, files, grouping_base(options), selection.found);
    }

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
    auto [result, seconds] = games::read_with_progress(
        files,
        [&](games::ReadProgress& progress) { return scan::scan_files(files, settings, &progress); },
        std::cerr);
    std::cout << "Time taken: " << seconds << "s" << std::endl;
    std::cout << scan::format_scan_summary(result, seconds);
    counts::write_counts(result.counts, output, labels ? &*labels : nullptr, settings.threads);
    std::cout << "Wrote " << result.tally.positions << " scored positions from "
              << result.tally.games_accepted << " games to " << options.output.string()
              << " for analysis." << std::endl;
    if (labels) {
        std::cout << fmt::format(
                         "The counts are kept apart by test: {} tests, {} group{} each "
                         "(labelled with test id, date, revisions, tc, threads, book).",
                         labels->units.size(), labels->groups_per_label,
                         labels->groups_per_label == 1 ? "" : "s by game")
                  << std::endl;
    } else if (grouping) {
        std::cout << grouping_line(*options.grouping) << std::endl;
    }
    if (options.json) {
        auto summary = scan::summarize_scan(result, seconds);
        summary.output = options.output.string();
        summary.tests = scan::scanned_tests(files, selection.metadata);
        summary.filters = options.games.filters;
        if (grouping) {
            const auto& written = grouping->grouping();
            summary.grouping = scan::ScanGrouping{std::string(counts::group_by_name(written.by)),
                                                  written.groups, std::nullopt};
            if (labels) summary.grouping->tests = labels->units.size();
        }
        auto json = scan::scan_summary_json(summary);
        util::write_file_atomically(
            *options.json,
            json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    }
}

}  // namespace wdl::commands
