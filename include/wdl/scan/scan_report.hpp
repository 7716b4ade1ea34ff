#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "wdl/scan/scanner.hpp"

namespace wdl::scan {

// The closing summary: files, games read/accepted/skipped by reason, positions, speed.
std::string format_scan_summary(const ScanResult& result, double seconds);

// Redraws a one-line progress display ("files, games, MB/s, ETA") on stderr twice a
// second while alive; does nothing unless stderr is a terminal.
class ProgressLine {
  public:
    ProgressLine(const ScanProgress& progress, std::uint64_t total_files,
                 std::uint64_t total_compressed_bytes);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

  private:
    void draw(double seconds) const;

    const ScanProgress& progress_;
    std::uint64_t total_files_;
    std::uint64_t total_compressed_bytes_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace wdl::scan
