// markovWDL's reading of games into chains and scaleWDL's into each engine's counts: any bytes,
// both eval parsings and transition modes, files with and without fishtest metadata. Their
// lists of broken games stay bounded, and every position scaleWDL counts is in its counts.
#include <cstdint>
#include <string_view>
#include <vector>

#include "wdl/markov/collector.hpp"
#include "wdl/scale/paired_counter.hpp"

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
    auto check_problems = [](const wdl::games::ProblemList& list) {
        const auto& problems = list.listed();
        if (problems.size() > wdl::games::kListedProblems) __builtin_trap();
        for (const auto& problem : problems)
            if (problem.description.size() > wdl::games::kLongestProblem + 40) __builtin_trap();
    };
    check_problems(collector.problems());

    static const wdl::scan::GameGrouping grouping({wdl::counts::GroupBy::Game, 4}, {"fuzz.pgn"}, {},
                                                  {"fuzz.pgn"});
    wdl::scale::PairedCountingRules rules;
    rules.eval_parsing = settings.eval_parsing;
    rules.grouping = &grouping;
    wdl::scale::PairedCounter counter(rules, files);
    counter.begin_chunk(0, 0);
    counter.read(text);
    check_problems(counter.problems());
    for (const auto& [key, pairing] : counter.pairings())
        if (pairing.counts.total_count() != pairing.positions[0] + pairing.positions[1])
            __builtin_trap();
    return 0;
}
