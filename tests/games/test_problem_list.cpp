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

TEST_CASE("a later text's problems join a list numbered after the games before it",
          "[games][problems]") {
    ProblemList first, later;
    first.add(3, "a");
    for (std::uint64_t game = 0; game < kListedProblems + 5; ++game) later.add(game, "b");
    first.add_all(later, 100);
    REQUIRE(first.listed().size() == kListedProblems);
    CHECK(first.listed()[0].game_index == 3);
    CHECK(first.listed()[1].game_index == 100);
    CHECK(first.listed().back().game_index == 100 + kListedProblems - 2);
    // The one listed in `later` that no longer fits, and the five `later` left unlisted.
    CHECK(first.unlisted() == 1 + 5);
}

TEST_CASE("a long description joins a later list cut once", "[games][problems]") {
    ProblemList chunk, file;
    chunk.add(0, std::string(5000, 'x'));
    file.add_all(chunk, 10);
    REQUIRE(file.listed().size() == 1);
    CHECK(file.listed()[0].description == chunk.listed()[0].description);
    CHECK(file.listed()[0].description.ends_with("(5000 bytes)"));
}
