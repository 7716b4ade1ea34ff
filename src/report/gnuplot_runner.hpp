#pragma once

#include <filesystem>
#include <string>
#include <string_view>

// Running gnuplot on generated scripts; internal to the report module.
namespace wdl::report::detail {

// A fresh directory under the system's temporary directory, removed with its content on
// destruction. Scripts and data files live here so that gnuplot only sees simple relative
// names, whatever characters the caller's paths contain.
class ScratchDirectory {
  public:
    ScratchDirectory();
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;

    const std::filesystem::path& path() const { return path_; }
    // Writes a file named `name` inside the directory.
    void write(const std::string& name, std::string_view content) const;

  private:
    std::filesystem::path path_;
};

// Throws wdl::Error when the directory that is to receive `png` does not exist, so
// that the caller learns this before any rendering.
void require_target_directory(const std::filesystem::path& png);

// Runs `gnuplot script_name` inside `scratch`; the script must write the PNG `png_name`
// there. Returns the PNG's bytes. Throws wdl::Error when gnuplot is missing, fails
// (with its error output) or writes no PNG.
std::string render_png(const ScratchDirectory& scratch, const std::string& script_name,
                       const std::string& png_name);

// A gnuplot double-quoted string literal with `text`'s quotes and backslashes escaped.
std::string gnuplot_string(std::string_view text);

}  // namespace wdl::report::detail
