#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "wdl/report/plots.hpp"

extern char** environ;

namespace wdl::report {

bool show_plot(const std::filesystem::path& png) {
    // gnuplot-nox has no interactive terminal, so the desktop's image viewer shows the PNG.
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) return false;
    std::string program = "xdg-open";
    std::string file = png.string();
    std::vector<char*> argv = {program.data(), file.data(), nullptr};
    pid_t pid = 0;
    if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, argv.data(), environ) != 0) return false;
    int status = 0;
    if (::waitpid(pid, &status, 0) < 0) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace wdl::report
