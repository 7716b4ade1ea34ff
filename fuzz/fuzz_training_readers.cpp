// The training-data readers (.binpack, .plain, bullet text, .bin) with the scanner's counting, and
// their layouts' cuts: any bytes, the first choosing the format and the grouping.
#include <cstdint>
#include <optional>
#include <string_view>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/scan/training_counter.hpp"
#include "wdl/training/training_data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    auto format = wdl::training::TrainingFormat(data[0] % 4);
    static const auto normalization = wdl::model::Normalization::fixed(328);
    wdl::scan::TrainingCountingRules rules;
    rules.normalization = &normalization;
    wdl::counts::Grouping grouping{wdl::counts::GroupBy::Game, 1 + (data[0] >> 3)};
    wdl::scan::GameGrouping groups(grouping, {"fuzz.binpack"}, {}, {"fuzz.binpack"});
    bool grouped = data[0] & 4;
    if (grouped) rules.grouping = &groups;
    wdl::counts::PositionCounts counts(grouped ? std::optional(grouping) : std::nullopt);
    wdl::scan::TrainingCounter counter(rules, counts);
    counter.begin_chunk(0);
    wdl::training::read_chunk(format, bytes, 0, counter);
    // The cuts must lie within the bytes.
    const auto& layout = wdl::training::record_layout(format);
    for (std::size_t cut : {layout.last_cut(bytes, 0), layout.forced_cut(bytes)}) {
        if (cut != std::string_view::npos && (cut == 0 || cut > bytes.size())) __builtin_trap();
    }
    return 0;
}
