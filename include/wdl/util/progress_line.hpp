#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace wdl::util {

bool stderr_is_terminal();

// One line of progress on stderr, redrawn in place. It is silent unless enabled (by default:
// when stderr is a terminal), so that logs and pipes never receive it.
class ProgressLine {
  public:
    explicit ProgressLine(bool enabled = stderr_is_terminal());
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    bool enabled() const { return enabled_; }
    // Shows the text; calls within a fifth of a second of the last redraw are dropped.
    void show(std::string_view text);
    // Wipes the line, so that other output starts at the beginning of a clean line.
    void clear();

  private:
    bool enabled_;
    bool visible_ = false;
    std::chrono::steady_clock::time_point last_shown_{};
    std::mutex mutex_;
};

// Redraws a ProgressLine twice a second from describe(seconds since start) on a thread of its
// own while alive, for work that cannot stop to report (a scan on several threads).
class ProgressTicker {
  public:
    explicit ProgressTicker(std::function<std::string(double seconds)> describe,
                            bool enabled = stderr_is_terminal());
    ~ProgressTicker();
    ProgressTicker(const ProgressTicker&) = delete;
    ProgressTicker& operator=(const ProgressTicker&) = delete;

  private:
    ProgressLine line_;
    std::mutex mutex_;
    std::condition_variable stopped_;
    bool stop_ = false;
    std::thread thread_;
};

// "1:05" for 65 seconds, the remaining time of work done at a constant rate, or "--" while
// less than a thousandth is done.
std::string estimated_time_left(double seconds, double fraction_done);

}  // namespace wdl::util
