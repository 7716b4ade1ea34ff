#include "wdl/scan/scan_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "wdl/util/progress_line.hpp"

namespace wdl::scan {

std::string format_files_line(const ReadSummary& files) {
    return fmt::format("Files: {} read, {} damaged, {} unreadable; {:.1f} MB of PGN text.\n",
                       files.files_read, files.files_damaged, files.files_unreadable,
                       double(files.text_bytes) / 1e6);
}

nlohmann::ordered_json files_json(const ReadSummary& files) {
    return {{"read", files.files_read},
            {"damaged", files.files_damaged},
            {"unreadable", files.files_unreadable},
            {"textBytes", files.text_bytes}};
}

std::string format_scan_summary(const ScanResult& result, double seconds) {
    const auto& tally = result.tally;
    const auto& files = result.files;
    std::uint64_t skipped = tally.games_read - tally.games_accepted;
    std::string reasons;
    for (std::size_t i = 0; i < kSkipReasonCount; ++i) {
        if (tally.skipped[i] == 0) continue;
        reasons += fmt::format("{}{}: {}", reasons.empty() ? " (" : ", ",
                               describe(GameSkipReason(i)), tally.skipped[i]);
    }
    if (!reasons.empty()) reasons += ")";
    double megabytes = double(files.text_bytes) / 1e6;
    double safe_seconds = std::max(seconds, 1e-9);
    std::string summary;
    summary += format_files_line(files);
    summary += fmt::format("Games: {} read, {} accepted, {} skipped{}.\n", tally.games_read,
                           tally.games_accepted, skipped, reasons);
    summary += fmt::format("Positions: {} counted in {} distinct keys.\n", tally.positions,
                           result.counts.distinct_keys());
    if (tally.scoreless_comments > 0) {
        summary += fmt::format(
            "Comments without a score: {} (a number without a decimal point, as OpenBench's "
            "\"12/17 41 40000\": no eval).\n",
            tally.scoreless_comments);
    }
    summary += fmt::format("Speed: {:.2f} s, {:.1f} MB/s of PGN text, {:.0f} games/s.\n", seconds,
                           megabytes / safe_seconds, double(tally.games_read) / safe_seconds);
    return summary;
}

nlohmann::ordered_json scan_summary_json(const ScanResult& result, double seconds) {
    const auto& tally = result.tally;
    const auto& files = result.files;
    nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < kSkipReasonCount; ++i)
        if (tally.skipped[i] > 0) skipped[describe(GameSkipReason(i))] = tally.skipped[i];
    nlohmann::ordered_json json;
    json["files"] = files_json(files);
    json["games"] = {{"read", tally.games_read},
                     {"accepted", tally.games_accepted},
                     {"skipped", std::move(skipped)}};
    json["positions"] = tally.positions;
    json["scorelessComments"] = tally.scoreless_comments;
    json["distinctKeys"] = result.counts.distinct_keys();
    json["seconds"] = seconds;
    json["warnings"] = files.warnings;
    return json;
}

std::string describe_progress(const ReadProgress& progress, std::uint64_t total_files,
                              std::uint64_t total_compressed_bytes, double seconds) {
    double done = double(progress.compressed_bytes);
    double fraction = total_compressed_bytes ? done / double(total_compressed_bytes) : 0.0;
    return fmt::format("Scanning: {}/{} files, {} games, {:.0f} MB/s, ETA {}",
                       progress.files_done.load(), total_files, progress.games_read.load(),
                       double(progress.text_bytes) / 1e6 / std::max(seconds, 1e-9),
                       util::estimated_time_left(seconds, fraction));
}

}  // namespace wdl::scan
