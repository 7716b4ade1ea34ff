#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "wdl/download/hub_archive.hpp"

// Where a refit from the fishtest archive takes its games (docs/archive.md): the tests of the
// selected date folders, and a batch of them downloaded into fishtest's layout.
namespace wdl::archive {

class ArchiveSource {
  public:
    virtual ~ArchiveSource() = default;
    // The commit the revision resolves to, the same for the whole run.
    virtual std::string commit() = 0;
    // The tests of the selected date folders, every file with its listed size.
    virtual std::vector<download::ArchiveTest> tests() = 0;
    // Downloads `tests` into `root` in fishtest's layout (ROOT/YY-MM-DD/<id>/...), keeping the
    // files already there and whole. A test the selection's filters leave out gets no game
    // files; a file that fails is reported on `log`, counted and left out.
    virtual download::ArchiveDownloadSummary download(
        const std::vector<download::ArchiveTest>& tests, const std::filesystem::path& root,
        std::ostream& log) = 0;
};

// The archive on the Hugging Face Hub (or the mirror the settings name), through
// download::HubArchive with `jobs` transfers at once.
std::unique_ptr<ArchiveSource> hub_archive_source(download::HubSettings hub,
                                                  download::ArchiveSelection selection,
                                                  download::HttpOptions http, int jobs);

}  // namespace wdl::archive
