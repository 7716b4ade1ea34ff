// markovWDL's reading of games into chains: any bytes, both eval parsings and transition modes,
// files with and without fishtest metadata. Its list of broken games stays bounded.
#include <cstdint>
#include <string_view>
#include <vector>

#include "wdl/markov/collector.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const wdl::markov::ClassScheme classes = wdl::markov::ClassScheme::log19();
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    wdl::markov::CollectorSettings settings;
    settings.classes = &classes;
    settings.eval_parsing =
        data[0] & 1 ? wdl::games::EvalParsing::Legacy : wdl::games::EvalParsing::Exact;
    settings.mode =
        data[0] & 2 ? wdl::markov::TransitionMode::Opponent : wdl::markov::TransitionMode::Own;
    std::vector<wdl::games::PairedGameFile> files{{"fuzz.pgn", {}, {}, {}}};
    if (data[0] & 4) files[0] = {"fuzz.pgn", "abc123", "New-1234567890ab", "Base-fedcba098765"};
    wdl::markov::ChainCollector collector(settings, files);
    collector.begin_chunk(0);
    collector.read(text);
    const auto& problems = collector.problems().listed();
    if (problems.size() > wdl::games::kListedProblems) __builtin_trap();
    for (const auto& problem : problems)
        if (problem.description.size() > wdl::games::kLongestProblem + 40) __builtin_trap();
    return 0;
}
