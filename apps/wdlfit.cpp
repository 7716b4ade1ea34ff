// wdlfit: the one entry point, git-style. `wdlfit scan ...` runs scoreWDLstat, `wdlfit fit ...`
// scoreWDL and so on: the programs installed beside it, started in its place with the same
// arguments, so each command is its program (same options, lines and exit codes).
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program_version.hpp"

namespace {

// The components a build may leave out (the options WDL_WITH_FIT, _DOWNLOAD, _ENDGAMES of
// CMakeLists.txt), and the core, always built. The archive's refit needs the fit and download.
enum class Component { Core, Fit, Download, Endgames, FitAndDownload };

struct Command {
    std::string_view name;     // as typed after wdlfit
    std::string_view program;  // the program it runs, under its original name
    std::string_view summary;  // one line for `wdlfit help` and the program's man page
    Component component = Component::Core;
};

// The CMake option that left a component out of this build, or nothing when it is built.
std::optional<std::string_view> left_out_by(Component component) {
    auto unless = [](bool built, std::string_view option) {
        return built ? std::nullopt : std::optional<std::string_view>(option);
    };
    switch (component) {
        case Component::Fit:
            return unless(WDL_WITH_FIT_BUILT, "WDL_WITH_FIT");
        case Component::Download:
            return unless(WDL_WITH_DOWNLOAD_BUILT, "WDL_WITH_DOWNLOAD");
        case Component::Endgames:
            return unless(WDL_WITH_ENDGAMES_BUILT, "WDL_WITH_ENDGAMES");
        case Component::FitAndDownload:
            if (auto fit = left_out_by(Component::Fit)) return fit;
            return left_out_by(Component::Download);
        case Component::Core:
            break;
    }
    return std::nullopt;
}

bool built(Component component) { return !left_out_by(component); }

// Every program of the project, in the order of the main job. CMake's test of the entry point
// checks that the programs of this list that are built and the programs built are the same.
constexpr std::array kCommands{
    Command{"download", "download_fishtest_pgns",
            "download finished fishtest tests' games and their metadata", Component::Download},
    Command{"metadata", "download_missing_metadata",
            "fetch the metadata JSON missing next to downloaded game files", Component::Download},
    Command{"archive", "archiveWDL",
            "refit from the fishtest archive on the Hugging Face Hub in bounded disk",
            Component::FitAndDownload},
    Command{"scan", "scoreWDLstat",
            "scan PGN files into counts of (result, move, material, eval) positions"},
    Command{"merge", "mergeWDLstat", "add count files (the shards of a scan) into one, exactly"},
    Command{"fit", "scoreWDL",
            "fit the WDL model to counts: the constants, their error bars, the plots",
            Component::Fit},
    Command{"update", "updateWDL.sh",
            "refit Stockfish's model from the fishtest games of a range of revisions",
            Component::Fit},
    Command{"compare", "compareWDL",
            "compare WDL models (published, fitted, from source), scored on games", Component::Fit},
    Command{"query", "queryWDL",
            "a model's W/D/L at evals and materials, and the eval of a wanted win rate"},
    Command{"track", "trackWDL",
            "the eval scale over time: NormalizeToPawnValue per test, revision or month",
            Component::Fit},
    Command{"scale", "scaleWDL",
            "did a patch change the eval scale? Each engine fitted on its own moves, paired",
            Component::Fit},
    Command{"human", "humanWDL",
            "W/D/L of human games from the eval, material, both ratings and the time control",
            Component::Fit},
    Command{"export", "exportWDL",
            "a model as source code for other engines: C++, C, Rust, Python, JavaScript, JSON"},
    Command{"annotate", "annotateWDL",
            "PGN with position and move symbols (NAGs) from a WDL model and the games' evals"},
    Command{"markov", "markovWDL",
            "eval-class Markov chains per engine and test, and what their predictions are worth",
            Component::Fit},
    Command{"competence", "scoreCompetence",
            "apparent endgame competence per engine from 3- and 4-man positions",
            Component::Endgames},
    Command{"tables", "generateTables", "the project's own endgame tables of up to 4 men",
            Component::Endgames},
    Command{"synth", "synthWDL",
            "count files drawn from a known model: tests, and planning how many games a fit needs"},
};

const Command* find_command(std::string_view word) {
    for (const auto& command : kCommands)
        if (word == command.name || word == command.program) return &command;
    return nullptr;
}

void print_usage() {
    fmt::print(
        "wdlfit {}: win/draw/loss models of chess engines from their games.\n"
        "Usage: wdlfit COMMAND [ARGUMENTS...]   runs the program of COMMAND with the arguments\n"
        "       wdlfit help [COMMAND]            this list, or the options of COMMAND\n"
        "       wdlfit --version                 the version and the commit it was built from\n"
        "       wdlfit --list-programs           command, program and summary, tab-separated\n"
        "\nCommands (each is also installed as the program named, for WDL_model's users):\n",
        wdlfit_version());
    for (const auto& command : kCommands)
        if (built(command.component))
            fmt::print("  {:<11} {:<26} {}\n", command.name, command.program, command.summary);
    fmt::print(
        "\nThe main job: wdlfit scan --dir pgns -r --groups 64, then wdlfit fit "
        "scoreWDLstat.json.\nEvery program explains its options with --help; the manual pages "
        "are `man PROGRAM`.\n");
}

// The command of `word`, or nothing after a one-line error: an unknown word, or a program of a
// component this build left out.
const Command* command_to_run(std::string_view word) {
    const auto* command = find_command(word);
    if (!command) {
        fmt::print(stderr, "Error: no command '{}'; `wdlfit help` lists them\n", word);
        return nullptr;
    }
    if (auto option = left_out_by(command->component)) {
        fmt::print(stderr,
                   "Error: {} is not in this build of wdlfit: it was configured with -D{}=OFF\n",
                   command->program, *option);
        return nullptr;
    }
    return command;
}

// Replaces this process by `program`, found in the folder of the running wdlfit: the installed
// prefix's bin/ or the build's apps/, never a program of another installation on PATH.
int run_program(std::string_view program, int argc, char** argv, int first_argument) {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    const auto folder = error ? std::filesystem::path(argv[0]).parent_path() : self.parent_path();
    const std::string path = (folder / program).string();
    std::vector<char*> arguments{const_cast<char*>(path.c_str())};
    for (int i = first_argument; i < argc; ++i) arguments.push_back(argv[i]);
    arguments.push_back(nullptr);
    execv(path.c_str(), arguments.data());
    fmt::print(stderr, "Error: cannot run {}: {} (wdlfit runs the programs installed beside it)\n",
               path, std::strerror(errno));
    return 127;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string_view first = argc > 1 ? argv[1] : "help";
    if (first == "help" || first == "--help" || first == "-h") {
        if (first == "help" && argc > 2) {
            const auto* command = command_to_run(argv[2]);
            if (!command) return 1;
            char help[] = "--help";
            char* arguments[] = {argv[0], help};
            return run_program(command->program, 2, arguments, 1);
        }
        print_usage();
        return 0;
    }
    if (first == "--version") {
        fmt::print("{}\n", version_line("wdlfit"));
        return 0;
    }
    if (first == "--list-programs") {
        for (const auto& command : kCommands)
            if (built(command.component))
                fmt::print("{}\t{}\t{}\n", command.name, command.program, command.summary);
        return 0;
    }
    const auto* command = command_to_run(first);
    if (!command) return 1;
    return run_program(command->program, argc, argv, 2);
}
