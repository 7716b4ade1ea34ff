#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "wdl/counts/grouping.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/game_reading.hpp"

// scoreWDLstat: scans PGN files, or training data, into a count file (docs/programs.md).
namespace wdl::commands {

struct ScoreWdlStatOptions {
    games::GameSelection games;
    std::optional<std::string> match_engine;  // default: --matchRev
    std::optional<std::filesystem::path> fix_fen_source;
    int bin_width = 5;
    games::EvalParsing eval_parsing = games::EvalParsing::Exact;
    int concurrency = 1;
    std::filesystem::path output = "scoreWDLstat.json";
    std::optional<std::filesystem::path> json;  // the summary as JSON
    // --groups K (--groupBy): write grouped counts; none writes the plain count file.
    std::optional<counts::Grouping> grouping;
    // --perTest: each test its own unit of groups (grouping->groups per test, default 1),
    // labelled with its id, date, revisions, tc, threads and book (docs/formats.md).
    bool per_test = false;
    // Training data (docs/training-data.md): --format (none: by each file's name; a name that
    // tells no format is PGN) and the conversion of its internal scores to displayed
    // centipawns, as scoreWDL's --NormalizeToPawnValue/--NormalizeData take them back.
    std::optional<std::string> format;
    std::optional<int> normalize_to_pawn_value;
    std::optional<std::string> normalize_data;
    // --human: lichess's human games into a human-games count file (docs/human-games.md),
    // by default kHumanOutput.
    bool human = false;
    // --memoryLimit: megabytes of cells a human scan holds before it spills runs to disk; by
    // default default_human_memory_limit().
    std::optional<std::size_t> memory_limit;
};

// An eighth of the machine's memory, at most 2048 MB (at least 64).
std::size_t default_human_memory_limit();

inline constexpr const char* kHumanOutput = "scoreWDLstat_human.txt";

// Runs the scan with the original's printed lines on stdout, warnings and the progress line
// on stderr. Throws wdl::Error for bad options, missing inputs and when nothing could be read.
void score_wdl_stat(const ScoreWdlStatOptions& options);

}  // namespace wdl::commands
