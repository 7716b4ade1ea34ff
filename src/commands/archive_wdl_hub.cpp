// archiveWDL from the Hub, apart from the refit itself: a program or test that refits from
// another source links no HTTP client.
#include "wdl/commands/archive_wdl.hpp"

namespace wdl::commands {

int archive_wdl(const ArchiveWdlOptions& options) {
    auto source =
        archive::hub_archive_source(options.hub, options.selection, options.http, options.jobs);
    return refit_from_archive(*source, options);
}

}  // namespace wdl::commands
