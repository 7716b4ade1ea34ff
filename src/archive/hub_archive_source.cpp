#include "wdl/archive/archive_source.hpp"

namespace wdl::archive {
namespace {

class HubArchiveSource : public ArchiveSource {
  public:
    HubArchiveSource(download::HubSettings hub, download::ArchiveSelection selection,
                     download::HttpOptions http, int jobs)
        : archive_(std::move(hub), std::move(selection), std::move(http), jobs) {}

    std::string commit() override { return archive_.commit(); }

    std::vector<download::ArchiveTest> tests() override {
        std::vector<download::ArchiveTest> tests;
        for (const auto& folder : archive_.date_folders()) {
            auto listed = archive_.tests_in(folder);
            std::move(listed.begin(), listed.end(), std::back_inserter(tests));
        }
        return tests;
    }

    download::ArchiveDownloadSummary download(const std::vector<download::ArchiveTest>& tests,
                                              const std::filesystem::path& root,
                                              std::ostream& log) override {
        return archive_.download(tests, root, log);
    }

  private:
    download::HubArchive archive_;
};

}  // namespace

std::unique_ptr<ArchiveSource> hub_archive_source(download::HubSettings hub,
                                                  download::ArchiveSelection selection,
                                                  download::HttpOptions http, int jobs) {
    return std::make_unique<HubArchiveSource>(std::move(hub), std::move(selection), std::move(http),
                                              jobs);
}

}  // namespace wdl::archive
