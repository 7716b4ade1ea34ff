#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "program_runner.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/synth/sampler.hpp"
#include "wdl/util/error.hpp"

using namespace wdl::synth;
namespace fs = std::filesystem;

namespace {

SamplerSettings settings_of(std::uint64_t positions, bool games = false, int groups = 0) {
    SamplerSettings settings;
    settings.positions = positions;
    settings.games = games;
    settings.groups = groups;
    settings.seed = 7;
    return settings;
}

// Observed and expected (from the model at each key) wins, draws and losses of a sample.
struct Tally {
    std::array<double, 3> observed{}, expected{};
};

Tally tally(const SamplerSettings& settings, const SampledCounts& sampled) {
    Tally t;
    sampled.counts.for_each([&](std::uint64_t packed, int, std::uint64_t count) {
        auto key = wdl::counts::unpack_key(packed);
        auto p = outcome_probabilities(settings.model, settings.normalization,
                                       {key.move, key.material, key.eval});
        t.observed[std::size_t(key.result)] += double(count);
        for (std::size_t o = 0; o < 3; ++o) t.expected[o] += double(count) * p[o];
    });
    return t;
}

}  // namespace

TEST_CASE("a seed gives one file, whatever the threads", "[synth]") {
    SyntheticPositions source(5);
    for (bool games : {false, true}) {
        auto settings = settings_of(300000, games, games ? 64 : 0);
        settings.threads = 1;
        auto one = sample_counts(settings, source);
        settings.threads = 3;
        auto three = sample_counts(settings, source);
        settings.seed = 8;
        auto other = sample_counts(settings, source);
        auto text = [&](const SampledCounts& s) {
            return games ? wdl::counts::grouped_count_file_bytes(*s.counts.grouped)
                         : wdl::counts::count_file_text(s.counts.plain);
        };
        CHECK(one.counts.total_count() == 300000);
        CHECK(text(one) == text(three));
        CHECK(one.games == three.games);
        CHECK(text(one) != text(other));
    }
}

TEST_CASE("independent positions follow the model", "[synth]") {
    SyntheticPositions source(5);
    auto settings = settings_of(200000);
    auto t = tally(settings, sample_counts(settings, source));
    for (std::size_t o = 0; o < 3; ++o) {
        // A sum of independent Bernoulli draws: its variance is at most the expected count.
        INFO("outcome " << o);
        CHECK(std::abs(t.observed[o] - t.expected[o]) < 5 * std::sqrt(t.expected[o]));
    }
}

TEST_CASE("the positions of a game share its result and follow the model", "[synth]") {
    SyntheticPositions source(5);
    // Few games in many groups: nearly every group holds one game.
    auto settings = settings_of(20000, true, wdl::counts::kMaxGroups);
    settings.positions_per_game = 100;
    auto sampled = sample_counts(settings, source);
    CHECK(sampled.games > 150);
    CHECK(sampled.games < 250);
    std::map<int, std::set<wdl::counts::Outcome>> results;
    sampled.counts.for_each([&](std::uint64_t key, int group, std::uint64_t) {
        results[group].insert(wdl::counts::unpack_key(key).result);
    });
    std::size_t pure = 0;
    for (const auto& [group, outcomes] : results) pure += outcomes.size() == 1;
    CHECK(results.size() >= sampled.games - 2);  // two games rarely share a group
    CHECK(pure >= results.size() - 2);

    // Every position's result follows the model; games make the totals vary more (a game's
    // positions move together), by at most the positions per game in variance.
    settings = settings_of(300000, true, 0);
    auto t = tally(settings, sample_counts(settings, source));
    for (std::size_t o = 0; o < 3; ++o) {
        INFO("outcome " << o);
        CHECK(std::abs(t.observed[o] - t.expected[o]) < 5 * std::sqrt(150 * t.expected[o]));
    }
}

TEST_CASE("positions can be drawn from a count file in proportion to its counts", "[synth]") {
    fs::path file = wdl::testing::scratch_directory() / "wdl_test_synth_from.json";
    std::ofstream(file) << R"j({"('W', 10, 60, 35)": 3, "('L', 10, 60, 35)": 1,
                              "('D', 30, 40, -100)": 4, "('D', 31, 41, 5)": 0})j";
    CountFilePositions source(file);
    wdl::stats::Random random(1);
    std::map<std::tuple<int, int, int>, int> seen;
    for (int i = 0; i < 80000; ++i) {
        auto shape = source.draw(random);
        ++seen[{shape.move, shape.material, shape.eval}];
    }
    REQUIRE(seen.size() == 2);
    // Half each: sd of the count is sqrt(80000 / 4) = 141.
    CHECK(std::abs(seen[{10, 60, 35}] - 40000) < 5 * 141);
    CHECK(std::abs(seen[{30, 40, -100}] - 40000) < 5 * 141);
    fs::remove(file);
}

TEST_CASE("the results are drawn at the eval scoreWDL recovers", "[synth]") {
    wdl::model::WdlModel model = stockfish_model();
    auto normalization = wdl::model::Normalization::fixed(200);
    // 100 cp displayed with a pawn value of 200 is internal eval 200.
    auto p = outcome_probabilities(model, normalization, {20, 58, 100});
    CHECK(p[0] == Approx(model.win(200, 58)));
    CHECK(p[2] == Approx(model.loss(200, 58)));
    // Material is clamped as Stockfish clamps it.
    auto low = outcome_probabilities(model, normalization, {20, 3, 100});
    CHECK(low[0] == Approx(model.win(200, 17)));
}

TEST_CASE("a model that is no distribution is refused", "[synth]") {
    wdl::model::WdlModel model;
    model.as = {0, 0, 0, -50};
    model.bs = {0, 0, 0, 60};
    CHECK_THROWS_AS(
        outcome_probabilities(model, wdl::model::Normalization::fixed(300), {20, 58, 0}),
        wdl::Error);
}
