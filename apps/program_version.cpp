#include "program_version.hpp"

#include <fmt/format.h>

#include "wdlfit_build_info.hpp"

std::string version_line(std::string_view program) {
    // The other programs say whose they are: scoreWDL and scoreWDLstat are also Stockfish's names.
    if (program == "wdlfit")
        return fmt::format("wdlfit {} (commit {})", wdlfit::kVersion, wdlfit::kCommit);
    return fmt::format("{} {} (wdlfit, commit {})", program, wdlfit::kVersion, wdlfit::kCommit);
}

std::string_view wdlfit_version() { return wdlfit::kVersion; }
