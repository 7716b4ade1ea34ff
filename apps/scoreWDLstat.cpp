// scoreWDLstat: scans PGN files into counts of (result, move, material, eval) positions.
// Drop-in for the WDL_model scanner: same options, output file and printed lines.
#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "game_selection_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "wdl/commands/score_wdl_stat.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace scoreWDLstat_program {

// --groups K and --groupBy: resampling units for scoreWDL.
void add_grouping_options(CLI::App& app, wdl::commands::ScoreWdlStatOptions& options) {
    auto* groups_option =
        app.add_option_function<int>(
               "--groups",
               [&options](int groups) {
                   if (!options.grouping) options.grouping.emplace();
                   options.grouping->groups = groups;
               },
               "Also record which of K groups each position belongs to, for scoreWDL's error "
               "bars and cross-validation: the output becomes a grouped count file (each key "
               "once, then per group its counts; the groups sum to the plain file; "
               "docs/formats.md). Default: off, plain output")
            ->check(number_checks::in_range(1, wdl::counts::kMaxGroups));
    auto* group_by_option = app.add_option_function<wdl::counts::GroupBy>(
        "--groupBy",
        [&options](wdl::counts::GroupBy by) {
            if (!options.grouping) options.grouping.emplace();
            options.grouping->by = by;
        },
        "What a group is made of: game (a hash of each game's file, relative to --dir, and its "
        "place in the file: whole games stay together) or test (whole fishtest tests, whose "
        "games share engines, time control and book; the ids of all tests found, before "
        "filters and shards, go in order to groups 0, 1, ... K-1, 0, ...)");
    accept_choices(group_by_option, choices(wdl::counts::kGroupByNames),
                   std::string(wdl::counts::group_by_name(wdl::counts::GroupBy::Game)))
        ->needs(groups_option);
    app.add_flag("--perTest", options.per_test,
                 "Keep the tests apart, for trackWDL: every test (every file's name up to its "
                 "first '-' or '.', so a file without fishtest metadata is a test of its own) "
                 "gets groups of its own, --groups K of them (default 1) into which its games "
                 "are hashed, and a label: test id, date, base and new revisions, tc, threads, "
                 "book and a file (from the metadata; without it, the date the file last "
                 "changed). The groups still sum to the plain file; mergeWDLstat merges such "
                 "files test by test (docs/formats.md)")
        ->excludes(group_by_option);
}

// Training data instead of games (docs/training-data.md).
void add_training_data_options(CLI::App& app, wdl::commands::ScoreWdlStatOptions& options) {
    app.add_option("--format", options.format,
                   "What the files hold: pgn, binpack (Stockfish's .binpack), plain (Stockfish's "
                   ".plain), bin (Stockfish's older .bin) or bullet (bullet's text, '<FEN> | "
                   "<score> | <result>' from White's view); --dir then lists that format's files "
                   "(also .gz, .zst) instead of games. Default: by each file's name (.binpack, "
                   ".plain, .bin, also compressed, are training data; other names are PGN)")
        ->check(CLI::IsMember({"pgn", "binpack", "plain", "bin", "bullet"}));
    auto* pawn_value = app.add_option("--NormalizeToPawnValue", options.normalize_to_pawn_value,
                                      "Training data: the data's scores are the engine's internal "
                                      "units; count them as the "
                                      "engine displays them, round(100 * score / N), so that "
                                      "scoreWDL given the same option "
                                      "takes them back. 100 keeps the data's units")
                           ->check(number_checks::positive());
    app.add_option("--NormalizeData", options.normalize_data,
                   "Training data: the same with a dynamic normalization, 100 * score / p_a(mom) "
                   "(JSON as for scoreWDL, or a model's name or file). Default: scoreWDL's default")
        ->excludes(pawn_value);
}

void add_options(CLI::App& app, wdl::commands::ScoreWdlStatOptions& options) {
    add_game_file_options(app, options.games.source);
    add_test_filter_options(app, options.games.filters);
    app.add_option_function<std::string>(
           "--shard",
           [&options](const std::string& text) {
               try {
                   options.games.shard = wdl::games::parse_shard(text);
               } catch (const wdl::Error& error) {
                   throw CLI::ValidationError(error.what());
               }
           },
           "Scan only shard I of N (0 <= I < N) of the files: whole tests, balanced by bytes, the "
           "same partition on every machine that sees the same tree (for job arrays; merge the "
           "shards' outputs with mergeWDLstat)")
        ->type_name("I/N");
    app.add_option("--concurrency", options.concurrency,
                   "Number of threads (default: all cores); one big file is split across "
                   "threads too")
        ->check(number_checks::positive());
    app.add_option("--matchEngine", options.match_engine,
                   "Count only the moves of the engine(s) whose White/Black name matches this "
                   "regex (default: --matchRev)");
    app.add_option("--fixFENsource", options.fix_fen_source,
                   "File of FENs with their true move counters (plain or .gz): restores the "
                   "counters that match runners reset to '0 1'");
    app.add_option("--binWidth", options.bin_width,
                   "Round evals to multiples of this many centipawns (default: 5)")
        ->check(number_checks::positive());
    add_choice_option(app, "--evalParsing", options.eval_parsing, wdl::games::kEvalParsingNames,
                      "exact: centipawns from the decimal digits; legacy: the original "
                      "scanner's float arithmetic, for byte-for-byte comparisons");
    app.add_option("-o", options.output,
                   "Output JSON file (default: scoreWDLstat.json; with --human: "
                   "scoreWDLstat_human.txt)");
    auto* human = app.add_flag(
        "--human", options.human,
        "People's games as lichess exports them ([%eval] comments, WhiteElo, BlackElo, "
        "TimeControl): each counted position keyed also by the side to move's rating, "
        "its opponent's (bins of 50) and the speed class (lichess's, from base + 40 x "
        "increment), into a human-games count file (docs/formats.md). Games without "
        "an eval, of a variant, from a set-up position, of a BOT or unrated are left "
        "out and counted; --groups K keeps game groups for error bars");
    app.add_option("--memoryLimit", options.memory_limit,
                   "With --human: megabytes of counts held in memory (default: an eighth of the "
                   "machine's memory, at most 2048); beyond them the counts go to sorted runs "
                   "in a folder next to the output (about 16 bytes a cell on disk), merged into "
                   "the output at the end")
        ->type_name("MB")
        ->check(number_checks::in_range(1, 1 << 20))
        ->needs(human);
    add_training_data_options(app, options);
    add_grouping_options(app, options);
    app.add_option("--json", options.json,
                   "Also write the summary (files, games read, accepted and skipped by reason, "
                   "positions, warnings) as JSON to this file");
}

}  // namespace scoreWDLstat_program

int wdl::programs::scoreWDLstat(int argc, char** argv) {
    using namespace scoreWDLstat_program;
    CLI::App app{
        "Scan fishtest/cutechess/fastchess/OpenBench/lichess PGN files, or NNUE training data "
        "(.binpack, .plain, bullet text), into counts of positions keyed by (result, move, "
        "material, eval), the input of scoreWDL.",
        "scoreWDLstat"};
    wdl::commands::ScoreWdlStatOptions options;
    options.concurrency = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    if (options.human && app.count("-o") == 0) options.output = wdl::commands::kHumanOutput;
    return wdl::util::report_errors([&] {
        wdl::commands::score_wdl_stat(options);
        return 0;
    });
}
