#include "wdl/util/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "wdl/util/error.hpp"

extern char** environ;

namespace wdl::util {
namespace {

// posix_spawn's actions own no memory; this wrapper makes sure they are released.
class SpawnActions {
  public:
    SpawnActions() { posix_spawn_file_actions_init(&actions_); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
    SpawnActions(const SpawnActions&) = delete;
    SpawnActions& operator=(const SpawnActions&) = delete;
    posix_spawn_file_actions_t* get() { return &actions_; }

  private:
    posix_spawn_file_actions_t actions_;
};

// The pipe's ends, closed however the run ends.
struct Pipe {
    int ends[2] = {-1, -1};
    ~Pipe() {
        for (int end : ends)
            if (end >= 0) ::close(end);
    }
};

}  // namespace

std::optional<ProcessResult> run_process(const std::vector<std::string>& arguments,
                                         const std::filesystem::path& directory) {
    Pipe pipe;
    if (::pipe2(pipe.ends, O_CLOEXEC) != 0)
        throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
    SpawnActions actions;
    if (!directory.empty()) posix_spawn_file_actions_addchdir_np(actions.get(), directory.c_str());
    posix_spawn_file_actions_adddup2(actions.get(), pipe.ends[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(actions.get(), pipe.ends[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);

    std::vector<std::string> words = arguments;
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int error = posix_spawnp(&pid, argv[0], actions.get(), nullptr, argv.data(), environ);
    if (error == ENOENT) return std::nullopt;
    if (error != 0) throw Error("cannot run " + arguments[0] + ": " + std::strerror(error));
    ::close(pipe.ends[1]);
    pipe.ends[1] = -1;

    ProcessResult result;
    char buffer[65536];
    for (;;) {
        ssize_t count = ::read(pipe.ends[0], buffer, sizeof buffer);
        if (count > 0) {
            result.output.append(buffer, std::size_t(count));
        } else if (count == 0 || errno != EINTR) {
            break;
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            throw Error("waiting for " + arguments[0] + ": " + std::strerror(errno));
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

}  // namespace wdl::util
