#include "wdl/scan/scan_report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace wdl::scan {

std::string format_scan_summary(const ScanResult& result, double seconds) {
    const auto& tally = result.tally;
    std::uint64_t skipped = tally.games_read - tally.games_accepted;
    std::string reasons;
    for (std::size_t i = 0; i < kSkipReasonCount; ++i) {
        if (tally.skipped[i] == 0) continue;
        reasons += fmt::format("{}{}: {}", reasons.empty() ? " (" : ", ", describe(SkipReason(i)),
                               tally.skipped[i]);
    }
    if (!reasons.empty()) reasons += ")";
    double megabytes = double(result.text_bytes) / 1e6;
    double safe_seconds = std::max(seconds, 1e-9);
    std::string summary;
    summary +=
        fmt::format("Files: {} read, {} damaged, {} unreadable; {:.1f} MB of PGN text.\n",
                    result.files_read, result.files_damaged, result.files_unreadable, megabytes);
    summary += fmt::format("Games: {} read, {} accepted, {} skipped{}.\n", tally.games_read,
                           tally.games_accepted, skipped, reasons);
    summary += fmt::format("Positions: {} counted in {} distinct keys.\n", tally.positions,
                           result.counts.distinct_keys());
    summary += fmt::format("Speed: {:.2f} s, {:.1f} MB/s of PGN text, {:.0f} games/s.\n", seconds,
                           megabytes / safe_seconds, double(tally.games_read) / safe_seconds);
    return summary;
}

ProgressLine::ProgressLine(const ScanProgress& progress, std::uint64_t total_files,
                           std::uint64_t total_compressed_bytes)
    : progress_(progress),
      total_files_(total_files),
      total_compressed_bytes_(total_compressed_bytes) {
    if (!::isatty(STDERR_FILENO)) return;
    thread_ = std::thread([this] {
        auto start = std::chrono::steady_clock::now();
        while (!stop_) {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
            draw(elapsed.count());
        }
        std::fputs("\r\033[K", stderr);
    });
}

ProgressLine::~ProgressLine() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
}

void ProgressLine::draw(double seconds) const {
    double done = double(progress_.compressed_bytes);
    double fraction = total_compressed_bytes_ ? done / double(total_compressed_bytes_) : 0.0;
    std::string eta = "--";
    if (fraction > 0.001) {
        auto remaining = static_cast<long>(seconds * (1 - fraction) / fraction);
        eta = fmt::format("{}:{:02}", remaining / 60, remaining % 60);
    }
    std::fputs(fmt::format("\r\033[KScanning: {}/{} files, {} games, {:.0f} MB/s, ETA {}",
                           progress_.files_done.load(), total_files_, progress_.games_read.load(),
                           double(progress_.text_bytes) / 1e6 / std::max(seconds, 1e-9), eta)
                   .c_str(),
               stderr);
    std::fflush(stderr);
}

}  // namespace wdl::scan
