#include <catch2/catch.hpp>
#include <string>

#include "wdl/games/chunked_reader.hpp"

using wdl::games::kListedProblems;
using wdl::games::kLongestProblem;
using wdl::games::ProblemList;

TEST_CASE("a problem list keeps the first problems and counts the rest", "[games][problems]") {
    ProblemList problems;
    for (std::uint64_t game = 0; game < 1000; ++game)
        problems.add(game, "invalid FEN \"" + std::to_string(game) + "\"");
    REQUIRE(problems.listed().size() == kListedProblems);
    CHECK(problems.listed().front().game_index == 0);
    CHECK(problems.listed().back().game_index == kListedProblems - 1);
    CHECK(problems.listed().back().description == "invalid FEN \"19\"");
    CHECK(problems.unlisted() == 1000 - kListedProblems);
    problems.clear();
    CHECK(problems.listed().empty());
    CHECK(problems.unlisted() == 0);
}

TEST_CASE("a problem list cuts a long description and says how long it was", "[games][problems]") {
    ProblemList problems;
    std::string fen(5'000'000, 'x');
    problems.add(7, fen);
    problems.add(8, std::string(kLongestProblem, 'y'));
    REQUIRE(problems.listed().size() == 2);
    const auto& cut = problems.listed()[0].description;
    CHECK(cut.size() < kLongestProblem + 40);
    CHECK(cut.starts_with(std::string(kLongestProblem, 'x') + "..."));
    CHECK(cut.ends_with("(5000000 bytes)"));
    CHECK(problems.listed()[1].description == std::string(kLongestProblem, 'y'));
}
