#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <optional>

#include "program_version.hpp"
#include "wdl/util/error.hpp"

// Parses a program's command line, with --version added. Returns the exit code when the program
// should stop there: 0 after --help or --version (printed), 1 after a mistake in the options or a
// file an option reads (wdl::Error), told in one line "Error: ..." on stderr as every other error
// of the programs (docs/programs.md).
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
    app.set_version_flag("--version", version_line(app.get_name()),
                         "Print the version and the commit it was built from, and exit");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0) return app.exit(error);
        fmt::print(stderr, "Error: {} ({} --help explains the options)\n", error.what(),
                   app.get_name());
        return 1;
    } catch (const wdl::Error& error) {
        fmt::print(stderr, "Error: {}\n", error.what());
        return 1;
    }
    return std::nullopt;
}
