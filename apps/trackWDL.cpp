// trackWDL: the engine's eval scale over time, from count files that keep their tests apart.
#include <CLI/CLI.hpp>
#include <thread>

#include "choice_option.hpp"
#include "normalization_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/track_wdl.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace trackWDL_program {

void add_options(CLI::App& app, wdl::commands::TrackWdlOptions& o) {
    app.add_option("files", o.files,
                   "Count files: labelled ones (scoreWDLstat --perTest, synthWDL --label, merged "
                   "by mergeWDLstat), each of whose tests is a unit; any other count file is "
                   "one unit, named by its file and dated by its last change")
        ->required()
        ->check(CLI::ExistingFile);
    app.add_option("--against", o.against,
                   "Count files of the Base engine's moves of the same tests (scoreWDLstat "
                   "--perTest --groups K --matchEngine 'Base-.*'; FILES then with 'New-.*'): "
                   "each window reports New's NormalizeToPawnValue against Base's with scaleWDL's "
                   "paired interval, and which windows' New moved the scale")
        ->check(CLI::ExistingFile);
    add_choice_option(app, "--by", o.by, wdl::fit::kWindowByNames,
                      "What a window is: each test; each revision of the engine under test (the "
                      "tests' new revision); each day, week (Monday to Sunday) or month of the "
                      "tests' dates; or runs of --every tests in order of date (for files "
                      "without dates: their order)");
    app.add_option("--every", o.every, "Tests per window with --by tests")
        ->check(number_checks::in_range(1, 1000000))
        ->capture_default_str();
    add_normalization_options(app, o.normalize_to_pawn_value, o.normalize_data,
                              "the engine that played the counted games");
    app.add_option("--momTarget", o.mom_target,
                   "The mom at which NormalizeToPawnValue (a) and the spread (b) are read")
        ->check(number_checks::in_range(1, 1000))
        ->capture_default_str();
    app.add_option("--moms", o.moms,
                   "Also report a(m) and b(m) at these moms, each with its interval")
        ->delimiter(',')
        ->check(number_checks::in_range(1, 1000))
        ->capture_default_str();
    add_choice_option(app, "--resample", o.resample, wdl::fit::kResampleMethodNames,
                      "Intervals from the groups of each window: jackknife (leave out one group "
                      "at a time) or bootstrap (draw the groups with replacement)");
    app.add_option("--resamples", o.bootstrap_resamples, "Number of bootstrap refits")
        ->check(number_checks::in_range(2, 100000))
        ->capture_default_str();
    app.add_option("--seed", o.seed, "Seed of the bootstrap's draws")
        ->check(number_checks::non_negative())  // CLI11 would wrap -1 to 2^64 - 1
        ->capture_default_str();
    app.add_option("--confidence", o.confidence, "Confidence of the intervals")
        ->check(number_checks::in_range(0.5, 0.999))
        ->capture_default_str();
    app.add_option("--threads", o.threads,
                   "Threads of the refits (default: all cores; the results do not depend on "
                   "them)")
        ->check(number_checks::positive());
    app.add_option("--json", o.json,
                   "Write the series as JSON: every window's tests, positions, estimates with "
                   "intervals and departure, the drift and the verdict, the published models");
    app.add_option("--csv", o.csv, "Write the series as CSV, one line per window");
    app.add_option("--png", o.png,
                   "Plot NormalizeToPawnValue over time (gnuplot): the windows with their "
                   "intervals as a band, the published models as steps, the engine's model as "
                   "a line, the windows departing from it circled, the verdict beneath");
}

}  // namespace trackWDL_program

int wdl::programs::trackWDL(int argc, char** argv) {
    using namespace trackWDL_program;
    CLI::App app(
        "Track the engine's eval scale over time: the tests of labelled count files gathered "
        "into windows (each test, revision, day, week, month, or N tests), each window fitted "
        "on its own with the engine's normalization, as scoreWDL fits, and its groups resampled "
        "for intervals; NormalizeToPawnValue, spread, draw rate at 0 and a(m), b(m) per window, "
        "the windows departing from the engine's model beyond noise, and a one-line verdict on "
        "the drift.",
        "trackWDL");
    wdl::commands::TrackWdlOptions options;
    options.threads = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    add_registry_option(app);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::track_wdl(options);
        return 0;
    });
}
