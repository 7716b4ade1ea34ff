#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "wdl/util/parallel_for.hpp"

TEST_CASE("parallel_for visits every item once, on the threads asked for", "[util][threads]") {
    for (int threads : {1, 2, 4}) {
        std::vector<std::atomic<int>> visits(1000);
        std::atomic<std::size_t> highest_worker{0};
        wdl::util::parallel_for(visits.size(), threads, [&](std::size_t worker, std::size_t item) {
            ++visits[item];
            std::size_t seen = highest_worker;
            while (worker > seen && !highest_worker.compare_exchange_weak(seen, worker)) {
            }
        });
        for (const auto& count : visits) CHECK(count == 1);
        CHECK(highest_worker < std::size_t(threads));
    }
}

TEST_CASE("parallel_for hands a worker's exception back and stops", "[util][threads]") {
    std::atomic<int> done{0};
    auto run = [&] {
        wdl::util::parallel_for(1'000, 2, [&](std::size_t, std::size_t item) {
            if (item == 5) throw std::runtime_error("item 5 failed");
            // Slow items: were the handing out not stopped, the other thread would take them all
            // (as it could, with instant items, while the failing thread waited for a core).
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            ++done;
        });
    };
    CHECK_THROWS_WITH(run(), "item 5 failed");
    CHECK(done < 1'000 - 1);
}

TEST_CASE("parallel_for of no items calls nothing", "[util][threads]") {
    int calls = 0;
    wdl::util::parallel_for(0, 4, [&](std::size_t, std::size_t) { ++calls; });
    CHECK(calls == 0);
}
