#include "gnuplot_runner.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "wdl/util/error.hpp"
#include "wdl/util/process.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::report::detail {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view png_signature = "\x89PNG\r\n\x1a\n";

// Runs gnuplot with its working directory in `directory`; its messages go to the log file.
util::ProcessResult run_gnuplot(const fs::path& directory, const std::string& script_name) {
    auto result = util::run_process({"gnuplot", script_name}, directory);
    if (!result)
        throw wdl::Error("cannot draw plots: gnuplot was not found on PATH (install gnuplot-nox)");
    return *result;
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
    const auto run = run_gnuplot(scratch.path(), script_name);
    if (run.exit_code != 0)
        throw wdl::Error("gnuplot failed to draw " + png_name + ":\n" + run.output);
    std::string png = util::read_whole_file(scratch.path() / png_name).value_or("");
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
