#include "skip.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>

namespace wdl::testing {

void skip_test(const std::string& reason) {
    if (std::getenv("WDL_TEST_UNDER_CTEST") != nullptr) {
        std::fflush(stderr);
        std::printf("%s: %s\n", kSkipMarker, reason.c_str());
        std::fflush(stdout);
        // 77, the "skipped" of automake and scripts/test-slurm.sh; CTest reads the marker.
        std::_Exit(77);
    }
    WARN("skipped: " << reason);
}

}  // namespace wdl::testing
