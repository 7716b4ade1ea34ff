#pragma once

#include <filesystem>

// Showing a saved plot on the desktop.
namespace wdl::report {

// For --plot save+show: opens a saved PNG in the desktop's image viewer (xdg-open), only
// when $DISPLAY or $WAYLAND_DISPLAY is set. Returns false when there is no display or the
// viewer could not be run or failed; never throws.
bool show_plot(const std::filesystem::path& png);

}  // namespace wdl::report
