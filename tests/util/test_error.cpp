#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

TEST_CASE("report_errors returns the body's exit code or 1 for an error", "[util][error]") {
    CHECK(wdl::util::report_errors([] { return 3; }) == 3);
    CHECK(wdl::util::report_errors([]() -> int { throw wdl::Error("bad input"); }) == 1);
}

TEST_CASE("the time left is estimated from the fraction done", "[util][progress]") {
    CHECK(wdl::util::estimated_time_left(10, 0.0005) == "--");
    CHECK(wdl::util::estimated_time_left(10, 0.25) == "0:30");
    CHECK(wdl::util::estimated_time_left(65, 0.5) == "1:05");
}

TEST_CASE("a disabled progress ticker never calls its description", "[util][progress]") {
    bool called = false;
    {
        wdl::util::ProgressTicker ticker(
            [&](double) {
                called = true;
                return std::string();
            },
            false);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK_FALSE(called);
}
