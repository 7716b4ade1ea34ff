#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace wdl::util {

// Runs body(worker, item) for every item in [0, count) on up to `threads` threads (the calling
// thread is worker 0), handing the items out one at a time in order, so that uneven items
// balance. The first exception a body throws stops the handing out and is rethrown here once
// every thread has stopped; a worker's exception never ends the process.
template <class Body>
void parallel_for(std::size_t count, int threads, Body body) {
    std::size_t workers = std::clamp<std::size_t>(std::size_t(std::max(threads, 1)), 1,
                                                  std::max<std::size_t>(count, 1));
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&](std::size_t worker) {
        try {
            for (std::size_t item = next++; item < count && !failed; item = next++)
                body(worker, item);
        } catch (...) {
            std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t worker = 1; worker < workers; ++worker) helpers.emplace_back(work, worker);
    work(0);
    for (auto& helper : helpers) helper.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace wdl::util
