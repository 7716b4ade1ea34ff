#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

// Runs the project's programs from tests and captures what they print.
namespace wdl::testing {

struct ProgramRun {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};

inline std::string shell_quote(const std::string& word) {
    std::string quoted = "'";
    for (char c : word) {
        if (c == '\'')
            quoted.append("'\\''");
        else
            quoted.push_back(c);
    }
    return quoted + "'";
}

// Runs `command` (a shell command line) in `directory` and returns its exit code and output.
inline ProgramRun run_command(const std::string& command, const std::filesystem::path& directory) {
    std::string line = "cd " + shell_quote(directory.string()) + " && " + command + " 2>&1";
    FILE* pipe = ::popen(line.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run " + command);
    ProgramRun run;
    std::array<char, 4096> buffer;
    std::size_t read = 0;
    while ((read = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        run.output.append(buffer.data(), read);
    int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

inline std::string program_path(const std::string& name) {
    return shell_quote(std::string(WDL_BINARY_DIR) + "/apps/" + name);
}

inline std::string read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A fresh, empty directory under the system's temporary directory.
inline std::filesystem::path fresh_directory(const std::string& name) {
    auto path = std::filesystem::temp_directory_path() / ("wdlfit_test_" + name);
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    return path;
}

}  // namespace wdl::testing
