#pragma once
// The filters of fishtest's tests that both download_fishtest_pgns and archiveWDL take, in the
// original downloader's spelling (--ltc_only, --tc_lower_limit, ..., --username).

#include <CLI/CLI.hpp>

#include "number_checks.hpp"
#include "wdl/download/finished_runs.hpp"
#include "wdl/fishtest/run_metadata.hpp"

inline void add_test_filter_options(CLI::App& app, wdl::download::FinishedRunsQuery& query,
                                    wdl::fishtest::SelectionRules& rules) {
    app.add_option("--ltc_only", query.ltc_only, "A True/False flag for LTC tests only.")
        ->default_str("True");
    app.add_option("--tc_lower_limit", rules.tc_lower_limit,
                   "Download only tests where base tc for each side is at least this.")
        ->check(number_checks::non_negative());
    app.add_option("--tc_upper_limit", rules.tc_upper_limit,
                   "Download only tests where base tc for each side is at most this.")
        ->check(number_checks::non_negative());
    app.add_option("--success_only", query.success_only, "A True/False flag for green tests only.")
        ->default_str("False");
    app.add_option("--yellow_only", query.yellow_only, "A True/False flag for yellow tests only.")
        ->default_str("False");
    app.add_option("--standard_chess_only", rules.standard_chess_only,
                   "A True/False flag to skip tests whose book is an FRC book.")
        ->default_str("False");
    app.add_option("--username", query.username, "Download USERNAME's tests only.");
}
