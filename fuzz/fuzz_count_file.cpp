// The count-file reader (plain and grouped) on any bytes, and mergeWDLstat's checks on what
// it reads.
#include <cstdint>

#include "fuzz_support.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    wdl::fuzz::InputFile file(data, size, ".json");
    try {
        wdl::counts::read_grouped_count_file(
            file.path(), [](int, const wdl::counts::PositionKey&, std::int64_t) {});
        wdl::counts::merge_count_files({file.path(), file.path()});
    } catch (const wdl::Error&) {
        // Bad input is an error naming the file: expected.
    }
    return 0;
}
