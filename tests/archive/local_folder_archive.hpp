#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "wdl/archive/archive_source.hpp"

// An archive in a local folder of fishtest's layout (the bundled data/), standing in for the
// Hub: its tests as the listing gives them, a download as copies.
namespace wdl::testing {

class LocalFolderArchive : public archive::ArchiveSource {
  public:
    explicit LocalFolderArchive(std::filesystem::path root, std::string commit = "c0ffee");

    std::string commit() override { return commit_; }
    std::vector<download::ArchiveTest> tests() override;
    download::ArchiveDownloadSummary download(const std::vector<download::ArchiveTest>& tests,
                                              const std::filesystem::path& root,
                                              std::ostream& log) override;

    // A download throws (a kill) once this many files were copied in all; negative: never.
    int copies_before_failure = -1;
    // Files (as listed) whose download fails: reported and counted, not copied.
    std::set<std::string> failing_files;
    // Tests the filters leave out: none of their files are copied.
    std::set<std::string> filtered_tests;
    // Called before each batch's copies, on the downloading thread.
    std::function<void()> before_download;
    int files_copied = 0;

  private:
    std::filesystem::path root_;
    std::string commit_;
};

}  // namespace wdl::testing
