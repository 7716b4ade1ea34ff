#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace wdl::fishtest::testing {

// A program started with its stdout and stderr captured in a file.
class ChildProcess {
  public:
    ChildProcess(const std::vector<std::string>& command, std::filesystem::path output_file);
    ~ChildProcess();  // kills the child if it still runs
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // The exit status, or -1 if the child had to be killed after `limit`.
    int wait(std::chrono::milliseconds limit = std::chrono::seconds(60));
    void kill_now();
    std::string output() const;

  private:
    pid_t pid_ = -1;
    std::filesystem::path output_file_;
};

struct ProgramResult {
    int exit_status;
    std::string output;
};

ProgramResult run_program(const std::vector<std::string>& command,
                          const std::filesystem::path& output_file);

}  // namespace wdl::fishtest::testing
