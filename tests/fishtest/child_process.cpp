#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace wdl::fishtest::testing {

ChildProcess::ChildProcess(const std::vector<std::string>& command,
                           std::filesystem::path output_file)
    : output_file_(std::move(output_file)) {
    std::vector<char*> arguments;
    for (const auto& argument : command) arguments.push_back(const_cast<char*>(argument.c_str()));
    arguments.push_back(nullptr);
    int output = ::open(output_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (output < 0) throw std::runtime_error("cannot create " + output_file_.string());
    pid_ = ::fork();
    if (pid_ == 0) {
        ::dup2(output, STDOUT_FILENO);
        ::dup2(output, STDERR_FILENO);
        ::execv(arguments[0], arguments.data());
        ::_exit(127);
    }
    ::close(output);
    if (pid_ < 0) throw std::runtime_error("fork() failed");
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0) kill_now();
}

int ChildProcess::wait(std::chrono::milliseconds limit) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill_now();
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void ChildProcess::kill_now() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

std::string ChildProcess::output() const {
    std::ifstream file(output_file_);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

ProgramResult run_program(const std::vector<std::string>& command,
                          const std::filesystem::path& output_file) {
    ChildProcess child(command, output_file);
    int status = child.wait();
    return {status, child.output()};
}

}  // namespace wdl::fishtest::testing
