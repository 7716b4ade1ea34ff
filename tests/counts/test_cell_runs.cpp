#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>

#include "program_runner.hpp"
#include "wdl/counts/cell_runs.hpp"
#include "wdl/counts/count_map.hpp"
#include "wdl/util/error.hpp"

namespace fs = std::filesystem;
using wdl::counts::CellRuns;
using wdl::counts::CountMap;

namespace {

std::map<std::uint64_t, std::uint64_t> merged_pairs(CellRuns& runs) {
    std::map<std::uint64_t, std::uint64_t> pairs;
    std::uint64_t key = 0, count = 0, previous = 0;
    auto merged = runs.merged();
    while (merged->next(key, count)) {
        CHECK((pairs.empty() || key > previous));  // ascending, each key once
        pairs[key] = count;
        previous = key;
    }
    return pairs;
}

}  // namespace

TEST_CASE("maps spilled as runs merge back to their sum, in passes past the merge width",
          "[counts][runs]") {
    const fs::path dir = wdl::testing::fresh_directory("cell_runs");
    for (std::size_t width : {std::size_t{2}, std::size_t{3}, std::size_t{64}}) {
        INFO("merge width " << width);
        std::map<std::uint64_t, std::uint64_t> expected;  // the independent sum
        std::mt19937_64 random(width);
        {
            CellRuns runs(dir / "runs", width);
            CountMap counts;
            // 10 runs of keys drawn from a small range, so that most keys are in several.
            for (int run = 0; run < 10; ++run) {
                for (int i = 0; i < 3000; ++i) {
                    std::uint64_t key = random() % 5000, count = random() % 9 + 1;
                    counts.add(key, count);
                    expected[key] += count;
                }
                runs.spill(counts);
                CHECK(counts.distinct_keys() == 0);
            }
            CHECK(runs.runs() == 10);
            CHECK(merged_pairs(runs) == expected);
            // 10 runs -> 5 -> 3 -> 2 by twos, 10 -> 4 -> 2 by threes.
            const int passes = width == 2 ? 3 : width == 3 ? 2 : 0;
            CHECK(runs.merge_passes() == passes);
            // Read again after the passes: the same pairs.
            CHECK(merged_pairs(runs) == expected);
            CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
        }
        // The folder of the runs goes with them.
        CHECK(fs::is_empty(dir));
    }
}

TEST_CASE("runs that cannot be written are an error naming the folder", "[counts][runs]") {
    CellRuns runs("/nonexistent-folder/runs");
    CountMap counts;
    counts.add(7, 1);
    CHECK_THROWS_WITH(runs.spill(counts), Catch::Contains("/nonexistent-folder/runs"));
}
