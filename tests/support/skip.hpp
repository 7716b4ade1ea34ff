#pragma once

#include <string>

// Tests that cannot run in an environment (a mode-000 file is readable to root) say so: CTest
// shows them as *Skipped*, never as passed.
namespace wdl::testing {

// The line that marks a skipped test in its output: wdl_add_test (cmake/WdlModule.cmake) gives
// every test the CTest property SKIP_REGULAR_EXPRESSION with it.
inline constexpr const char* kSkipMarker = "WDL_TEST_SKIPPED";

// Under CTest (WDL_TEST_UNDER_CTEST set by wdl_add_test), prints kSkipMarker and the reason and
// ends the process: CTest runs one test case per process and reports it as Skipped. Run by
// hand (the whole test program), it only warns with the reason and returns, so that the other
// test cases still run: the caller returns right after it.
//
// Why a marker and not SKIP_RETURN_CODE: Catch2 v2 exits with the number of failed
// assertions, so any skip code would also be what a test with that many failures returns.
void skip_test(const std::string& reason);

}  // namespace wdl::testing
