#include "wdl/games/reading_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "wdl/util/progress_line.hpp"

namespace wdl::games {

std::string format_files_line(const ReadSummary& files, std::string_view content) {
    return fmt::format("Files: {} read, {} damaged, {} unreadable; {:.1f} MB of {}.\n",
                       files.files_read, files.files_damaged, files.files_unreadable,
                       double(files.text_bytes) / 1e6, content);
}

nlohmann::ordered_json files_json(const ReadSummary& files) {
    return {{"read", files.files_read},
            {"damaged", files.files_damaged},
            {"unreadable", files.files_unreadable},
            {"textBytes", files.text_bytes}};
}

std::string describe_progress(const ReadProgress& progress, std::uint64_t total_files,
                              std::uint64_t total_compressed_bytes, double seconds) {
    double done = double(progress.compressed_bytes);
    double fraction = total_compressed_bytes ? done / double(total_compressed_bytes) : 0.0;
    return fmt::format("Scanning: {}/{} files, {} {}, {:.0f} MB/s, ETA {}",
                       progress.files_done.load(), total_files, progress.games_read.load(),
                       progress.records_name,
                       double(progress.text_bytes) / 1e6 / std::max(seconds, 1e-9),
                       util::estimated_time_left(seconds, fraction));
}

}  // namespace wdl::games
