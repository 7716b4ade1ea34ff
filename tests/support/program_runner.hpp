#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

// Running the project's programs from tests: the one runner of the test suite.
namespace wdl::testing {

struct ProgramRun {
    int exit_code = -1;  // -1 if the program did not exit normally or had to be killed
    std::string output;  // stdout and stderr together, in the order written
};

// The built program `name` (scoreWDL, scoreWDLstat, ...).
std::filesystem::path program_path(const std::string& name);

// Runs the program with these arguments in `directory` (default: the current one) and waits
// at most `limit` for it.
ProgramRun run_program(const std::string& name, const std::vector<std::string>& arguments,
                       const std::filesystem::path& directory = {},
                       std::chrono::milliseconds limit = std::chrono::minutes(5));

// run_program with the arguments given as one line, separated by blanks (none may contain one).
ProgramRun run_program_line(const std::string& name, const std::string& arguments,
                            const std::filesystem::path& directory = {});

// A program running in the background with its stdout and stderr captured in a file.
class ChildProcess {
  public:
    ChildProcess(const std::vector<std::string>& command, std::filesystem::path output_file,
                 const std::filesystem::path& directory = {});
    ~ChildProcess();  // kills the child if it still runs
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // The exit code, or -1 if the child had to be killed after `limit`.
    int wait(std::chrono::milliseconds limit = std::chrono::minutes(5));
    void kill_now();
    std::string output() const;

  private:
    pid_t pid_ = -1;
    std::filesystem::path output_file_;
};

// The build's folder for the files tests write (<build>/test_scratch): separate for every
// build, so that test runs of other builds or checkouts on the machine never meet.
std::filesystem::path scratch_directory();

// A fresh, empty directory in the scratch directory.
std::filesystem::path fresh_directory(const std::string& name);

std::string read_text_file(const std::filesystem::path& path);
void write_text_file(const std::filesystem::path& path, const std::string& content);

// Lines of a program's output.
std::vector<std::string> lines_of(const std::string& text);
// The first line starting with prefix, or "" if none.
std::string line_starting(const std::string& text, const std::string& prefix);
// True if one line of the text contains both parts (a warning must name its file).
bool has_line_with(const std::string& text, const std::string& first, const std::string& second);

}  // namespace wdl::testing
