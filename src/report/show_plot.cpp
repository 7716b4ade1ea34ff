#include "wdl/report/show_plot.hpp"

#include <cstdlib>

#include "wdl/util/process.hpp"

namespace wdl::report {

bool show_plot(const std::filesystem::path& png) {
    // gnuplot-nox has no interactive terminal, so the desktop's image viewer shows the PNG.
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) return false;
    try {
        auto result = util::run_process({"xdg-open", png.string()});
        return result && result->exit_code == 0;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace wdl::report
