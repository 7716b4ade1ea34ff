#include "local_folder_archive.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>

namespace wdl::testing {

namespace fs = std::filesystem;

LocalFolderArchive::LocalFolderArchive(fs::path root, std::string commit)
    : root_(std::move(root)), commit_(std::move(commit)) {}

std::vector<download::ArchiveTest> LocalFolderArchive::tests() {
    std::vector<download::ArchiveTest> tests;
    for (const auto& date : fs::directory_iterator(root_)) {
        auto name = date.path().filename().string();
        if (!date.is_directory() || !download::is_date_folder_name(name)) continue;
        for (const auto& folder : fs::directory_iterator(date.path())) {
            download::ArchiveTest test{name, folder.path().filename().string(), {}};
            for (const auto& file : fs::directory_iterator(folder.path())) {
                test.files.push_back({fs::relative(file.path(), root_).generic_string(),
                                      fs::file_size(file.path()), ""});
            }
            std::sort(test.files.begin(), test.files.end(),
                      [](const auto& a, const auto& b) { return a.path < b.path; });
            tests.push_back(std::move(test));
        }
    }
    std::sort(tests.begin(), tests.end(), [](const auto& a, const auto& b) {
        return std::tie(a.date_folder, a.id) < std::tie(b.date_folder, b.id);
    });
    return tests;
}

download::ArchiveDownloadSummary LocalFolderArchive::download(
    const std::vector<download::ArchiveTest>& tests, const fs::path& root, std::ostream& log) {
    if (before_download) before_download();
    download::ArchiveDownloadSummary summary{};
    for (const auto& test : tests) {
        ++summary.tests_seen;
        if (filtered_tests.count(test.id)) continue;
        ++summary.tests_selected;
        for (const auto& file : test.files) {
            auto target = root / file.path;
            if (fs::exists(target) && fs::file_size(target) == file.size) {
                ++summary.files_present;
                continue;
            }
            if (failing_files.count(file.path)) {
                log << "Warning: " << file.path << ": failed its check twice, left out\n";
                ++summary.files_failed;
                continue;
            }
            if (copies_before_failure >= 0 && files_copied >= copies_before_failure)
                throw std::runtime_error("killed in the middle of a download");
            fs::create_directories(target.parent_path());
            fs::copy_file(root_ / file.path, target, fs::copy_options::overwrite_existing);
            ++files_copied;
            ++summary.files_downloaded;
            summary.bytes += file.size;
        }
    }
    return summary;
}

}  // namespace wdl::testing
