#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wdl::util {

struct ProcessResult {
    int exit_code = -1;  // -1 if the program was ended by a signal
    std::string output;  // its stdout and stderr together
};

// Runs a program found on PATH with the arguments (arguments[0] is the program's name) and
// waits for it, with stdin from /dev/null, in `directory` if given. Returns nothing when the
// program is not found; throws wdl::Error when it cannot be started for another reason.
std::optional<ProcessResult> run_process(const std::vector<std::string>& arguments,
                                         const std::filesystem::path& directory = {});

}  // namespace wdl::util
