// The PGN reader with the scanner's whole per-game counting and the human games' counting
// (scoreWDLstat --human), and the chunk cutter: any bytes, both eval parsings, with and without
// groups.
#include <cstdint>
#include <optional>
#include <string_view>

#include "wdl/counts/grouped_counts.hpp"
#include "wdl/scan/game_counter.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/scan/human_counter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    wdl::scan::CountingRules rules;
    rules.eval_parsing =
        data[0] & 1 ? wdl::games::EvalParsing::Legacy : wdl::games::EvalParsing::Exact;
    rules.bin_width = 1 + ((data[0] >> 1) & 15);
    wdl::counts::Grouping grouping{wdl::counts::GroupBy::Game, 1 + (data[0] >> 5)};
    wdl::scan::GameGrouping groups(grouping, {"fuzz.pgn"}, {}, {"fuzz.pgn"});
    bool grouped = data[0] & 32;
    if (grouped) rules.grouping = &groups;
    wdl::counts::PositionCounts counts(grouped ? std::optional(grouping) : std::nullopt);
    wdl::scan::GameCounter counter(rules, counts);
    counter.begin_chunk(0, 0);
    counter.read(text);
    wdl::counts::CountMap human_counts;
    wdl::scan::HumanCounter human_counter(rules, human_counts);
    human_counter.read_chunk(wdl::games::TextChunk{0, 0, text});
    // The cutters must answer within the text, for every minimum offset.
    std::size_t next = wdl::pgn::find_next_game_start(text, size / 3);
    if (next != std::string_view::npos && next >= text.size()) __builtin_trap();
    std::size_t cut = wdl::pgn::find_last_game_start(text, text.size() / 2);
    if (cut != std::string_view::npos && cut >= text.size()) __builtin_trap();
    return 0;
}
