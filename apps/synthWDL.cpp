// synthWDL: draws count files from a known WDL model, in the scanner's format.

#include <CLI/CLI.hpp>
#include <cmath>
#include <thread>

#include "choice_option.hpp"
#include "model_option.hpp"
#include "normalization_options.hpp"
#include "number_checks.hpp"
#include "parse_command_line.hpp"
#include "programs.hpp"
#include "registry_option.hpp"
#include "wdl/commands/synth_wdl.hpp"
#include "wdl/counts/grouping.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/util/error.hpp"

// This program's helpers, in a namespace of its own: the programs are compiled together.
namespace synthWDL_program {

using wdl::model::MomType;

// A polynomial's coefficients, highest power first (Stockfish's as[]/bs[] order).
void add_coefficients(CLI::App& app, const std::string& name,
                      std::optional<wdl::model::Coefficients>& c, const std::string& description) {
    app.add_option(name, c, description)
        ->type_name("C,...")
        ->delimiter(',')
        ->check(number_checks::finite())
        ->expected(wdl::model::kMinCurveDegree + 1, wdl::model::kMaxCurveDegree + 1);
}

void add_options(CLI::App& app, wdl::commands::SynthWdlOptions& o) {
    app.add_option_function<double>(
        "-n,--positions",
        [&o](double n) {
            if (!(n >= 1 && n <= 1e13 && n == std::floor(n)))
                throw CLI::ValidationError("--positions", "a whole number from 1 to 1e13");
            o.positions = std::uint64_t(n);
        },
        "Number of positions to draw, e.g. 1e6 (default: 1e6)");
    app.add_option("-o,--output", o.output, "Count file to write")->capture_default_str();
    app.add_option("--seed", o.seed, "Seed of the draws: the same seed gives the same file")
        ->check(number_checks::non_negative())  // CLI11 would wrap -1 to 2^64 - 1
        ->capture_default_str();
    add_model_option(app, o.model, "The true model",
                     ". Default: sf18, whose as[] is scoreWDL's default --NormalizeData");
    add_coefficients(
        app, "--as", o.as,
        "The true model's as[] instead of --model: c3,c2,c1,c0 for a cubic (2 to 6 numbers: a "
        "polynomial, highest power first; other forms as a --model file), its mom "
        "unclamped");
    add_coefficients(app, "--bs", o.bs, "The true model's bs[] (with --as), as --as");
    add_choice_option(app, "--momType", o.mom_type,
                      choices(wdl::model::kMomTypeNames, {MomType::Material, MomType::Move}),
                      "The mom of --as/--bs");
    app.add_option("--momTarget", o.mom_target, "The momTarget of --as/--bs")
        ->check(number_checks::in_range(1, 1000))
        ->capture_default_str();
    // Results are drawn at the internal eval scoreWDL recovers from the recorded cp.
    add_normalization_options(app, o.normalize_to_pawn_value, o.normalize_data, "the engine");
    app.add_option("--from", o.from,
                   "Draw the positions' (move, material, eval) from this count file, in "
                   "proportion to its counts, instead of the synthetic distribution");
    app.add_option("--binWidth", o.bin_width,
                   "Bin the synthetic evals as scoreWDLstat --binWidth does")
        ->check(number_checks::positive())
        ->capture_default_str();
    app.add_flag("--games", o.games,
                 "Draw games: positions that share one result (each game's positions drawn "
                 "given its result), instead of independent positions");
    app.add_option("--positionsPerGame", o.positions_per_game,
                   "Mean positions of a game; each has M/2 to 3M/2, uniformly")
        ->check(number_checks::in_range(1, 100000))
        ->capture_default_str();
    app.add_option("--groups", o.groups,
                   "Write a grouped count file of K groups by game (each independent position "
                   "its own game), as scoreWDLstat --groups. Default: 64 with --games, else a "
                   "plain count file; 0 for plain")
        ->check(number_checks::in_range(0, wdl::counts::kMaxGroups));
    app.add_option("--label", o.label,
                   "Label the output as one unit of a labelled grouped file (a synthetic test, "
                   "for trackWDL; needs groups): FIELD=VALUE pairs, id (required), date "
                   "(YYYY-MM-DD), base, new, tc, threads, book, file. Merge such files with "
                   "mergeWDLstat (docs/formats.md)")
        ->type_name("FIELD=VALUE");
    app.add_option("--threads", o.threads, "Threads (the counts do not depend on them)")
        ->check(number_checks::positive());
    app.add_option("--json", o.json, "Also write what was drawn (and the true model) as JSON");
}

}  // namespace synthWDL_program

int wdl::programs::synthWDL(int argc, char** argv) {
    using namespace synthWDL_program;
    CLI::App app(
        "Draw a count file (the input of scoreWDL, in scoreWDLstat's format) from a known WDL "
        "model: positions (move, material, displayed eval) from a synthetic distribution or a "
        "count file, each result drawn from the model at the internal eval of the recorded "
        "one; as independent positions or as games whose positions share one result. "
        "Deterministic for a seed. Use it to test fits and their error bars, or to see how "
        "many positions a fit needs.",
        "synthWDL");
    wdl::commands::SynthWdlOptions options;
    options.threads = std::max(1, int(std::thread::hardware_concurrency()));
    add_options(app, options);
    add_registry_option(app);
    if (auto stop = parse_command_line(app, argc, argv)) return *stop;
    return wdl::util::report_errors([&] {
        wdl::commands::synth_wdl(options);
        return 0;
    });
}
