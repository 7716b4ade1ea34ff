#include "wdl/util/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace wdl::util {

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::show(std::string_view text) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    auto now = std::chrono::steady_clock::now();
    if (visible_ && now - last_shown_ < std::chrono::milliseconds(200)) return;
    last_shown_ = now;
    std::fputs("\r\033[K", stderr);
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
    visible_ = true;
}

void ProgressLine::clear() {
    std::lock_guard lock(mutex_);
    if (!visible_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    visible_ = false;
}

ProgressTicker::ProgressTicker(std::function<std::string(double)> describe, bool enabled)
    : line_(enabled) {
    if (!enabled) return;
    thread_ = std::thread([this, describe = std::move(describe)] {
        auto start = std::chrono::steady_clock::now();
        std::unique_lock lock(mutex_);
        while (!stopped_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; })) {
            std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
            line_.show(describe(elapsed.count()));
        }
        line_.clear();
    });
}

ProgressTicker::~ProgressTicker() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    stopped_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::string estimated_time_left(double seconds, double fraction_done) {
    if (fraction_done <= 0.001) return "--";
    auto remaining = static_cast<long>(seconds * (1 - fraction_done) / fraction_done);
    return fmt::format("{}:{:02}", remaining / 60, remaining % 60);
}

}  // namespace wdl::util
