#include "wdl/commands/score_wdl_stat.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <iostream>

#include "wdl/counts/count_file.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/games/engine_filter.hpp"
#include "wdl/games/fix_fen.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/scan/human_scan.hpp"
#include "wdl/scan/scan_report.hpp"
#include "wdl/scan/scan_summary.hpp"
#include "wdl/scan/scanner.hpp"
#include "wdl/scan/training_scan.hpp"
#include "wdl/training/training_data.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/machine_memory.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;

std::string grouping_line(const counts::Grouping& grouping) {
    return grouping.by == counts::GroupBy::Test
               ? "The counts are split into " + std::to_string(grouping.groups) +
                     " groups by fishtest test (the tests in order of their ids, one group each, "
                     "round robin)."
               : "The counts are split into " + std::to_string(grouping.groups) +
                     " groups by game (a hash of each game's file and place in it).";
}

// The format of each file: --format, else its name's (PGN when it tells none). A scan reads
// games or training data, not both. Nothing when all are PGN.
std::optional<std::vector<training::TrainingFormat>> training_formats(
    const ScoreWdlStatOptions& options, const std::vector<fs::path>& files) {
    std::optional<training::TrainingFormat> chosen;
    if (options.format && *options.format != "pgn") {
        chosen = training::format_named(*options.format);
        if (!chosen)
            throw Error("--format " + *options.format + ": not pgn, binpack, plain or bullet");
    }
    if (options.format == "pgn") return std::nullopt;
    std::vector<training::TrainingFormat> formats;
    const fs::path* pgn_file = nullptr;
    for (const auto& file : files) {
        auto format = chosen ? chosen : training::format_of_file(file);
        if (format) {
            formats.push_back(*format);
        } else if (!pgn_file) {
            pgn_file = &file;
        }
    }
    if (formats.empty()) return std::nullopt;
    if (pgn_file) {
        throw Error("a scan reads games or training data, not both: " + pgn_file->string() +
                    " is PGN (scan the two apart and merge the counts with mergeWDLstat)");
    }
    return formats;
}

// The selection: with a --format of training data, --dir lists that format's files instead of
// games (bullet's text has no name of its own: give its files with --file or --fileList).
games::GameSelection listed_files(const ScoreWdlStatOptions& options) {
    games::GameSelection selection = options.games;
    if (options.format == "pgn") return selection;
    // Training data by its name, or all of it by --format: the "Found ..." line tells them apart.
    if (!options.format) {
        selection.source.is_training_data = [](const fs::path& file) {
            return training::format_of_file(file).has_value();
        };
        return selection;
    }
    selection.source.is_training_data = [](const fs::path&) { return true; };
    selection.source.lists_games = false;
    if (options.format == "bullet") return selection;
    for (const char* compression : {"", ".gz", ".zst"})
        selection.source.also_listed.push_back("." + *options.format + compression);
    return selection;
}

struct GroupingOfScan {
    std::optional<scan::GameGrouping> grouping;
    std::optional<counts::GroupLabels> labels;
};

GroupingOfScan grouping_of_scan(const ScoreWdlStatOptions& options,
                                const games::SelectedFiles& selection) {
    GroupingOfScan result;
    const auto& files = selection.selected;
    if (options.per_test && !files.empty()) {
        // Without files there is no unit to label: the empty plain file merges with any.
        result.grouping.emplace(
            scan::GameGrouping::per_test(options.grouping ? options.grouping->groups : 1, files,
                                         scan::grouping_base(options.games.source)));
        result.labels = result.grouping->test_labels(files, selection.metadata);
    } else if (options.grouping && !options.per_test) {
        result.grouping.emplace(*options.grouping, files, scan::grouping_base(options.games.source),
                                selection.found);
    }
    return result;
}

void print_grouping_lines(const ScoreWdlStatOptions& options, const GroupingOfScan& grouping) {
    if (grouping.labels) {
        const auto& labels = *grouping.labels;
        std::cout << fmt::format(
                         "The counts are kept apart by test: {} tests, {} group{} each "
                         "(labelled with test id, date, revisions, tc, threads, book).",
                         labels.units.size(), labels.groups_per_label,
                         labels.groups_per_label == 1 ? "" : "s by game")
                  << std::endl;
    } else if (grouping.grouping) {
        std::cout << grouping_line(*options.grouping) << std::endl;
    }
}

// --json: the summary, its strings' bad bytes replaced (file names, warnings).
void write_summary(const fs::path& path, const nlohmann::ordered_json& json) {
    util::write_file_atomically(
        path, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

void scan_games(const ScoreWdlStatOptions& options, const games::SelectedFiles& selection,
                const GroupingOfScan& grouping) {
    if (options.normalize_to_pawn_value || options.normalize_data) {
        throw Error(
            "--NormalizeToPawnValue and --NormalizeData apply to training data, whose scores "
            "are internal units; a game's evals are displayed already (give them to scoreWDL)");
    }
    auto engine_filter = games::compile_engine_filter(
        games::engine_filter_pattern(options.match_engine, options.games.filters.match_rev));
    std::optional<games::FixFenTable> fix_fen;
    if (options.fix_fen_source) fix_fen = games::FixFenTable::load(*options.fix_fen_source);
    const auto& files = selection.selected;

    scan::ScanSettings settings;
    settings.threads = options.concurrency;
    settings.rules.bin_width = options.bin_width;
    settings.rules.eval_parsing = options.eval_parsing;
    settings.rules.engine_filter = engine_filter.get();
    settings.rules.fix_fen = fix_fen ? &*fix_fen : nullptr;
    settings.rules.grouping = grouping.grouping ? &*grouping.grouping : nullptr;

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
    counts::write_counts(result.counts, output, grouping.labels ? &*grouping.labels : nullptr,
                         settings.threads);
    std::cout << "Wrote " << result.tally.positions << " scored positions from "
              << result.tally.games_accepted << " games to " << options.output.string()
              << " for analysis." << std::endl;
    print_grouping_lines(options, grouping);
    if (options.json) {
        auto summary = scan::summarize_scan(result, seconds);
        summary.output = options.output.string();
        summary.tests = scan::scanned_tests(files, selection.metadata);
        summary.filters = options.games.filters;
        if (grouping.grouping) {
            const auto& written = grouping.grouping->grouping();
            summary.grouping = scan::ScanGrouping{std::string(counts::group_by_name(written.by)),
                                                  written.groups, std::nullopt};
            if (grouping.labels) summary.grouping->tests = grouping.labels->units.size();
        }
        write_summary(*options.json, scan::scan_summary_json(summary));
    }
}

// --human: what does not apply to people's games is refused, not ignored.
void check_human_options(const ScoreWdlStatOptions& options) {
    if (options.match_engine || options.fix_fen_source || options.format ||
        options.normalize_to_pawn_value || options.normalize_data || options.per_test) {
        throw Error(
            "--human reads people's games from the start position: --matchEngine, "
            "--fixFENsource, --format, --NormalizeToPawnValue, --NormalizeData and --perTest do "
            "not apply");
    }
    if (options.grouping && options.grouping->by != counts::GroupBy::Game)
        throw Error("--human keeps games apart by game (--groupBy game), not by fishtest test");
}

// The runs of a spilling scan go next to the output (the same disk, which has room for it),
// or to the system's temporary folder for an output that is a device or pipe.
std::filesystem::path runs_prefix(const std::filesystem::path& output,
                                  const util::AtomicFile& written) {
    if (written.written_path() == output)
        return std::filesystem::temp_directory_path() / "scoreWDLstat-runs";
    return output.string() + ".runs";
}

void scan_human_games(const ScoreWdlStatOptions& options, const games::SelectedFiles& selection,
                      const GroupingOfScan& grouping) {
    check_human_options(options);
    const auto& files = selection.selected;
    scan::ScanSettings settings;
    settings.threads = options.concurrency;
    settings.rules.bin_width = options.bin_width;
    settings.rules.eval_parsing = options.eval_parsing;
    settings.rules.grouping = grouping.grouping ? &*grouping.grouping : nullptr;

    util::AtomicFile output(options.output);
    scan::HumanScanMemory memory;
    const std::size_t megabytes = options.memory_limit.value_or(default_human_memory_limit());
    memory.cell_budget = scan::human_cell_budget(megabytes);
    memory.runs_prefix = runs_prefix(options.output, output);
    std::cout << "Scanning " << files.size() << " files of human games with " << settings.threads
              << " threads, " << megabytes << " MB of cells in memory." << std::endl;
    auto [result, seconds] = games::read_with_progress(
        files,
        [&](games::ReadProgress& progress) {
            return scan::scan_human_files(files, settings, memory, &progress);
        },
        std::cerr);
    std::cout << "Time taken: " << seconds << "s" << std::endl;
    const int groups = grouping.grouping ? grouping.grouping->grouping().groups : 1;
    const std::size_t runs = result.runs->runs();
    if (runs > 0)
        std::cout << "Memory full: the cells went to " << runs << (runs == 1 ? " run" : " runs")
                  << " on disk, merged into the output." << std::endl;
    const std::size_t cells = scan::write_human_scan(result, groups, output);
    std::cout << scan::format_scan_summary(result.tally, result.files, cells, seconds);
    std::cout << "Wrote " << result.tally.positions << " scored positions from "
              << result.tally.games_accepted << " games to " << options.output.string()
              << ", keyed by ratings and speed class too, for analysis." << std::endl;
    print_grouping_lines(options, grouping);
    if (options.json) {
        auto summary = scan::summarize_scan(result.tally, result.files, cells, seconds);
        summary.output = options.output.string();
        if (grouping.grouping)
            summary.grouping = scan::ScanGrouping{
                std::string(counts::group_by_name(counts::GroupBy::Game)), groups, std::nullopt};
        summary.spilled_runs = runs;
        write_summary(*options.json, scan::scan_summary_json(summary));
    }
}

void scan_training_data(const ScoreWdlStatOptions& options, const games::SelectedFiles& selection,
                        const GroupingOfScan& grouping,
                        std::vector<training::TrainingFormat> formats) {
    if (options.match_engine || options.fix_fen_source)
        throw Error("--matchEngine and --fixFENsource apply to games, not to training data");
    auto normalization =
        model::Normalization::from_options(options.normalize_to_pawn_value, options.normalize_data);
    const auto& files = selection.selected;
    scan::TrainingScanSettings settings;
    settings.threads = options.concurrency;
    settings.formats = std::move(formats);
    settings.rules.bin_width = options.bin_width;
    settings.rules.grouping = grouping.grouping ? &*grouping.grouping : nullptr;
    settings.rules.normalization = &normalization;

    util::AtomicFile output(options.output);
    std::cout << "Scanning " << files.size() << " files of training data with " << settings.threads
              << " threads." << std::endl;
    std::cout << "Converting the data's internal scores to displayed centipawns with "
              << normalization.description() << " (scoreWDL takes them back with the same)."
              << std::endl;
    auto [result, seconds] = games::read_with_progress(
        files,
        [&](games::ReadProgress& progress) {
            return scan::scan_training_files(files, settings, &progress);
        },
        std::cerr);
    std::cout << "Time taken: " << seconds << "s" << std::endl;
    std::cout << scan::format_training_summary(result, seconds);
    std::cerr << scan::units_warning(result);
    counts::write_counts(result.counts, output, grouping.labels ? &*grouping.labels : nullptr,
                         settings.threads);
    std::cout << "Wrote " << result.tally.positions << " scored positions from "
              << result.tally.units << " units of training data to " << options.output.string()
              << " for analysis." << std::endl;
    print_grouping_lines(options, grouping);
    if (options.json) {
        auto json = scan::training_summary_json(result, seconds);
        json["output"] = options.output.string();
        json["normalization"] = normalization.description();
        write_summary(*options.json, json);
    }
}

}  // namespace

std::size_t default_human_memory_limit() {
    const std::size_t machine = util::machine_memory_megabytes();
    if (machine == 0) return 1024;
    return std::clamp<std::size_t>(machine / 8, 64, 2048);
}

void score_wdl_stat(const ScoreWdlStatOptions& options) {
    games::FileFilter filter(options.games.filters);
    // An empty shard is no error: its count file, empty, still merges with the others.
    auto selection = games::select_game_files(listed_files(options), filter, std::cout, std::cerr);
    auto grouping = grouping_of_scan(options, selection);
    if (options.human) {
        scan_human_games(options, selection, grouping);
    } else if (auto formats = training_formats(options, selection.selected)) {
        scan_training_data(options, selection, grouping, std::move(*formats));
    } else {
        scan_games(options, selection, grouping);
    }
}

}  // namespace wdl::commands
