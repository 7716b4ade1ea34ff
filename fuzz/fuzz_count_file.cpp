// The count-file reader (plain and grouped; into a sink and into a count target, which reads
// the scanners' layout by a parser of its own) on any bytes, mergeWDLstat's checks on what
// it reads, and the reader of human-games count files.
#include <cstdint>
#include <memory>

#include "fuzz_support.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/util/error.hpp"

namespace {

// Sums the counts, as the fit's grid would take them (unsigned: huge counts wrap, defined).
class SumTarget : public wdl::counts::CountTarget {
  public:
    void add(const wdl::counts::PositionKey&, std::int64_t count) override {
        sum += static_cast<std::uint64_t>(count);
    }
    std::unique_ptr<CountTarget> blank_copy() const override {
        return std::make_unique<SumTarget>();
    }
    void merge(const CountTarget& part) override {
        sum += dynamic_cast<const SumTarget&>(part).sum;
    }
    std::uint64_t sum = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    wdl::fuzz::InputFile file(data, size, ".json");
    try {
        SumTarget target;
        wdl::counts::read_count_file(file.path(), target);
    } catch (const wdl::Error&) {
        // Bad input is an error naming the file: expected.
    }
    try {
        wdl::counts::read_grouped_count_file(
            file.path(), [](int, const wdl::counts::PositionKey&, std::int64_t) {});
        wdl::counts::merge_count_files({file.path(), file.path()});
    } catch (const wdl::Error&) {
        // Bad input is an error naming the file: expected.
    }
    try {
        if (wdl::counts::is_human_count_file(file.path())) {
            auto counts = wdl::counts::read_human_counts(file.path());
            (void)counts.total_count();
        }
    } catch (const wdl::Error&) {
        // Bad input is an error naming the file: expected.
    }
    return 0;
}
