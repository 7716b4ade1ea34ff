#include "wdl/scan/scan_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "wdl/fishtest/layout.hpp"
#include "wdl/games/reading_report.hpp"

namespace wdl::scan {

std::string format_scan_summary(const ScanResult& result, double seconds) {
    return format_scan_summary(result.tally, result.files, result.counts.distinct_keys(), seconds);
}

std::string format_scan_summary(const GameTally& tally, const games::ReadSummary& files,
                                std::size_t distinct_keys, double seconds) {
    std::uint64_t skipped = tally.games_read - tally.games_accepted;
    std::string reasons;
    for (const auto& [reason, count] : skip_reasons(tally))
        reasons += fmt::format("{}{}: {}", reasons.empty() ? " (" : ", ", reason, count);
    if (!reasons.empty()) reasons += ")";
    double megabytes = double(files.text_bytes) / 1e6;
    double safe_seconds = std::max(seconds, 1e-9);
    std::string summary;
    summary += games::format_files_line(files);
    summary += fmt::format("Games: {} read, {} accepted, {} skipped{}.\n", tally.games_read,
                           tally.games_accepted, skipped, reasons);
    summary +=
        fmt::format("Positions: {} counted in {} distinct keys.\n", tally.positions, distinct_keys);
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

}  // namespace wdl::scan
