#pragma once

#include <string>
#include <string_view>

// The line `--version` prints: the program, wdlfit's version and the commit it was built from.
// Defined in program_version.cpp, the only file compiled again when the commit changes.
std::string version_line(std::string_view program);

// wdlfit's version number, e.g. "0.1.0".
std::string_view wdlfit_version();
