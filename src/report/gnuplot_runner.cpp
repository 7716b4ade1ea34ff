#include "gnuplot_runner.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "wdl/util/error.hpp"

extern char** environ;

namespace wdl::report::detail {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view png_signature = "\x89PNG\r\n\x1a\n";
constexpr const char* log_name = "gnuplot.log";

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

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

// Runs gnuplot with its working directory in `directory` and both output streams in the
// log file there; returns its wait status.
int run_gnuplot(const fs::path& directory, const std::string& script_name) {
    SpawnActions actions;
    const fs::path log = directory / log_name;
    posix_spawn_file_actions_addchdir_np(actions.get(), directory.c_str());
    posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);

    std::string program = "gnuplot";
    std::string script = script_name;
    std::vector<char*> argv = {program.data(), script.data(), nullptr};
    pid_t pid = 0;
    const int error = posix_spawnp(&pid, "gnuplot", actions.get(), nullptr, argv.data(), environ);
    if (error == ENOENT)
        throw wdl::Error("cannot draw plots: gnuplot was not found on PATH (install gnuplot-nox)");
    if (error != 0) throw wdl::Error(std::string("cannot run gnuplot: ") + std::strerror(error));

    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            throw wdl::Error(std::string("waiting for gnuplot: ") + std::strerror(errno));
    }
    return status;
}

}  // namespace

ScratchDirectory::ScratchDirectory() {
    static std::atomic<unsigned> counter{0};
    const fs::path base = fs::temp_directory_path();
    // The pid and a counter make the name unique across processes and threads; the loop
    // only guards against leftovers of a crashed process that had the same pid.
    for (;;) {
        path_ =
            base / ("wdl_report." + std::to_string(::getpid()) + "." + std::to_string(counter++));
        if (fs::create_directory(path_)) return;
    }
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

void ScratchDirectory::write(const std::string& name, std::string_view content) const {
    std::ofstream out(path_ / name, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out.flush()) throw wdl::Error("cannot write plot data " + (path_ / name).string());
}

void require_target_directory(const fs::path& png) {
    const fs::path directory = png.parent_path().empty() ? fs::path(".") : png.parent_path();
    if (!fs::is_directory(directory))
        throw wdl::Error("cannot write plot " + png.string() + ": directory " + directory.string() +
                         " does not exist");
}

std::string render_png(const ScratchDirectory& scratch, const std::string& script_name,
                       const std::string& png_name) {
    const int status = run_gnuplot(scratch.path(), script_name);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw wdl::Error("gnuplot failed to draw " + png_name + ":\n" +
                         read_file(scratch.path() / log_name));
    std::string png = read_file(scratch.path() / png_name);
    if (!png.starts_with(png_signature))
        throw wdl::Error("gnuplot wrote no valid PNG for " + png_name);
    return png;
}

std::string gnuplot_string(std::string_view text) {
    std::string literal = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') literal += '\\';
        literal += c;
    }
    return literal + "\"";
}

}  // namespace wdl::report::detail
