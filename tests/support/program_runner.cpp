#include "program_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace wdl::testing {

std::filesystem::path program_path(const std::string& name) {
    return std::filesystem::path(WDL_BINARY_DIR) / "apps" / name;
}

ChildProcess::ChildProcess(const std::vector<std::string>& command,
                           std::filesystem::path output_file,
                           const std::filesystem::path& directory)
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
        if (!directory.empty() && ::chdir(directory.c_str()) != 0) ::_exit(126);
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

std::string ChildProcess::output() const { return read_text_file(output_file_); }

ProgramRun run_program(const std::string& name, const std::vector<std::string>& arguments,
                       const std::filesystem::path& directory, std::chrono::milliseconds limit) {
    static std::atomic<int> runs{0};
    auto output_file =
        std::filesystem::temp_directory_path() /
        ("wdlfit_test_output_" + std::to_string(::getpid()) + "_" + std::to_string(runs++));
    std::vector<std::string> command{program_path(name).string()};
    command.insert(command.end(), arguments.begin(), arguments.end());
    ProgramRun run;
    {
        ChildProcess child(command, output_file, directory);
        run.exit_code = child.wait(limit);
        run.output = child.output();
    }
    std::filesystem::remove(output_file);
    return run;
}

std::filesystem::path scratch_directory() {
    auto path = std::filesystem::path(WDL_BINARY_DIR) / "test_scratch";
    std::filesystem::create_directories(path);
    return path;
}

std::filesystem::path fresh_directory(const std::string& name) {
    auto path = scratch_directory() / name;
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    return path;
}

std::string read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_text_file(const std::filesystem::path& path, const std::string& content) {
    std::ofstream(path, std::ios::binary) << content;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string line_starting(const std::string& text, const std::string& prefix) {
    for (const auto& line : lines_of(text))
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

bool has_line_with(const std::string& text, const std::string& first, const std::string& second) {
    for (const auto& line : lines_of(text))
        if (line.find(first) != line.npos && line.find(second) != line.npos) return true;
    return false;
}

ProgramRun run_program_line(const std::string& name, const std::string& arguments,
                            const std::filesystem::path& directory) {
    std::vector<std::string> words;
    std::istringstream in(arguments);
    for (std::string word; in >> word;) words.push_back(word);
    return run_program(name, words, directory);
}

}  // namespace wdl::testing
