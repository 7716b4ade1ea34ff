#pragma once
// trackWDL --against: New's scale against Base's, window by window (a private header of the
// command).

#include "wdl/commands/track_wdl.hpp"

namespace wdl::commands {

// Reads New's and Base's labelled count files, matches their tests, fits both engines of every
// window and compares them with the paired jackknife of scaleWDL; prints the table and the
// windows that moved the scale, writes the JSON, CSV and plot.
void track_scale_ratio(const TrackWdlOptions& options);

}  // namespace wdl::commands
