#pragma once
// The options that choose which games a program reads, shared by the programs that read PGN
// (scoreWDLstat, markovWDL, scoreCompetence): the files, and fishtest's per-test filters.

#include <CLI/CLI.hpp>

#include "number_checks.hpp"
#include "wdl/games/file_selection.hpp"

// --file, --dir, -r, --fileList, --allowDuplicates.
inline void add_game_file_options(CLI::App& app, wdl::games::GameFileSource& source) {
    app.add_option("--file", source.file, "Path to a single .pgn(.gz|.zst) file");
    app.add_option("--dir", source.dir,
                   "Directory with .pgn, .pgn.gz and .pgn.zst files (default: ./pgns)");
    app.add_flag("-r", source.recursive, "Search the directory recursively");
    app.add_option("--fileList", source.file_list,
                   "Read the files listed in this file (one path per line; # comments), e.g. one "
                   "part of a corpus split by hand");
    app.add_flag("--allowDuplicates", source.allow_duplicates,
                 "Warn instead of stopping when one test id appears in two directories");
}

// The filters on each test's fishtest metadata: --matchRev, --matchTC, --matchThreads,
// --matchBook, --matchBookInvert, --EloDiffMax, --EloDiffMin, --SPRTonly.
inline void add_test_filter_options(CLI::App& app, wdl::games::FileFilters& filters) {
    app.add_option("--matchRev", filters.match_rev,
                   "Keep tests whose resolved_base or resolved_new matches this regex");
    app.add_option("--matchTC", filters.match_tc,
                   "Keep tests whose tc matches this regex (and equals new_tc)");
    app.add_option("--matchThreads", filters.match_threads,
                   "Keep tests that used this number of threads")
        ->check(number_checks::positive());
    app.add_option("--matchBook", filters.match_book,
                   "Keep tests whose book name matches this regex");
    app.add_flag("--matchBookInvert", filters.match_book_invert,
                 "Invert --matchBook (tests without a book are still dropped)");
    app.add_option("--EloDiffMax", filters.elo_diff_max,
                   "Keep tests whose normalized Elo (from the pentanomial) is at most X")
        ->check(number_checks::finite());
    app.add_option("--EloDiffMin", filters.elo_diff_min,
                   "Keep tests whose normalized Elo is at least Y (default: -X)")
        ->check(number_checks::finite());
    app.add_flag("--SPRTonly", filters.sprt_only, "Keep only SPRT tests");
}
