#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "test_data.hpp"
#include "wdl/games/file_selection.hpp"
#include "wdl/markov/analysis.hpp"
#include "wdl/markov/report.hpp"
#include "wdl/markov/results.hpp"

using namespace wdl::markov;

namespace {

const ClassScheme& classes() {
    static const ClassScheme scheme = ClassScheme::log19();
    return scheme;
}

std::vector<wdl::games::PairedGameFile> corpus_files() {
    std::vector<wdl::games::PairedGameFile> files;
    for (const auto& path : wdl::games::list_game_files(wdl::testing::corpus_path(), true))
        files.push_back({path, path.parent_path().filename().string(), {}, {}});
    return files;
}

Collection collect(const std::vector<wdl::games::PairedGameFile>& files, int threads,
                   std::size_t chunk_bytes = std::size_t{4} << 20) {
    CollectorSettings settings;
    settings.classes = &classes();
    wdl::games::ReadSettings reading;
    reading.chunk_bytes = chunk_bytes;
    return collect_games(files, settings, threads, reading);
}

// The JSON of everything but the time taken.
std::string results_text(const Collection& collection, const MarkovResults& results) {
    auto json = results_json({classes(), TransitionMode::Own, false}, results, collection.games,
                             collection.files, 0);
    return json.dump();
}

GameRecord game(std::uint64_t opening, bool new_white, int halves) {
    return {opening, new_white, std::uint8_t(halves)};
}

}  // namespace

TEST_CASE("the actual score's error is pentanomial over opening pairs and trinomial otherwise",
          "[markov][analysis]") {
    // Three pairs scoring 1, 1/2 and 1/2 of a point per game: mean 2/3, pair means 1, 1/2, 1/2.
    std::vector<GameRecord> pairs = {game(1, true, 2),  game(1, false, 2), game(2, true, 2),
                                     game(2, false, 0), game(3, true, 1),  game(3, false, 1)};
    auto actual = actual_score(pairs);
    CHECK(actual.paired);
    CHECK(actual.pairs == 3);
    CHECK(actual.score == Approx(2.0 / 3));
    // sqrt(sum (pair mean - 2/3)^2 / N) / sqrt(N) with N = 3 pairs.
    double variance = (std::pow(1 - 2.0 / 3, 2) + 2 * std::pow(0.5 - 2.0 / 3, 2)) / 3;
    CHECK(actual.standard_error == Approx(std::sqrt(variance / 3)));
    CHECK(actual.wins == 3);
    CHECK(actual.draws == 2);
    CHECK(actual.losses == 1);

    // Ten games from one opening do not pair: each game alone, the trinomial error.
    std::vector<GameRecord> unpaired;
    for (int i = 0; i < 10; ++i) unpaired.push_back(game(7, i % 2 == 0, i < 6 ? 2 : 0));
    auto trinomial = actual_score(unpaired);
    CHECK_FALSE(trinomial.paired);
    CHECK(trinomial.score == Approx(0.6));
    CHECK(trinomial.standard_error == Approx(std::sqrt(0.6 * 0.4 / 10)));

    auto single = actual_score(std::vector<GameRecord>{game(1, true, 2)});
    CHECK(std::isnan(single.standard_error));
    CHECK(elo_of_score(0.5) == 0);
    CHECK(elo_of_score(0.75) == Approx(400 * std::log10(3)));
    CHECK(std::isinf(elo_of_score(1)));
}

TEST_CASE("the bundled games give row-stochastic matrices and folds that keep openings whole",
          "[markov][analysis]") {
    auto collection = collect(corpus_files(), 2);
    REQUIRE(collection.games.pairings.size() == 6);
    for (const auto& [key, pairing] : collection.games.pairings) {
        INFO(key);
        for (bool per_colour : {false, true}) {
            auto chains = engine_chains(pairing, {per_colour, {true, true}});
            for (const auto& chain : chains)
                for (const auto* estimate : {&chain.as_white, &chain.as_black})
                    for (int i = 0; i < estimate->probabilities.size(); ++i) {
                        CHECK(estimate->probabilities.row_sum(i) == Approx(1).margin(1e-12));
                        for (int j = 0; j < estimate->probabilities.size(); ++j)
                            REQUIRE(estimate->probabilities.at(i, j) >= 0);
                    }
        }
        // Every opening's games are in one fold, and both folds together hold every game.
        auto first = games_in(pairing, {true, false});
        auto second = games_in(pairing, {false, true});
        CHECK(first.size() + second.size() == pairing.games.size());
        std::set<std::uint64_t> first_openings;
        for (const auto& g : first) first_openings.insert(g.opening);
        for (const auto& g : second) CHECK(first_openings.count(g.opening) == 0);
        // Fishtest plays each opening with both colours: nearly all games are found in pairs
        // (a small book repeats a few openings; a game lost to a time forfeit leaves a single).
        auto actual = actual_score(pairing.games);
        CHECK(actual.paired);
        CHECK(double(actual.pairs * 2) >= 0.9 * double(pairing.games.size()));
    }
}

TEST_CASE("threads and chunks and the order of files and reading them twice change nothing",
          "[markov][analysis]") {
    AnalysisSettings settings;
    wdl::model::WdlModel model;
    model.as = {-72.3, 185.9, -144.6, 416.4};
    model.bs = {83.9, -136.1, 70.0, 47.6};
    settings.model.emplace(model, std::nullopt, "a test model");
    auto files = corpus_files();
    auto one = collect(files, 1);
    auto reference = analyse(one.games, classes(), settings);
    auto reference_text = results_text(one, reference);

    auto reversed = files;
    std::reverse(reversed.begin(), reversed.end());
    for (auto [threads, chunk_bytes, order] :
         {std::tuple{2, std::size_t{4} << 20, &files}, std::tuple{2, std::size_t{20000}, &files},
          std::tuple{3, std::size_t{50000}, &reversed}}) {
        INFO("threads " << threads << ", chunk " << chunk_bytes);
        auto other = collect(*order, threads, chunk_bytes);
        CHECK(results_text(other, analyse(other.games, classes(), settings)) == reference_text);
    }

    // The same games twice: every probability, score and error is the same (an opening's four
    // games form one cluster whose deviation and weight both double).
    auto twice_files = files;
    twice_files.insert(twice_files.end(), files.begin(), files.end());
    auto twice = collect(twice_files, 2);
    auto doubled = analyse(twice.games, classes(), settings);
    REQUIRE(doubled.pairings.size() == reference.pairings.size());
    for (std::size_t i = 0; i < reference.pairings.size(); ++i) {
        const auto& a = reference.pairings[i];
        const auto& b = doubled.pairings[i];
        CHECK(b.actual.games == 2 * a.actual.games);
        CHECK(b.actual.score == Approx(a.actual.score));
        CHECK(b.actual.standard_error == Approx(a.actual.standard_error));
        CHECK(b.stationary.overall.score() == Approx(a.stationary.overall.score()));
        CHECK(b.model->overall.win == Approx(a.model->overall.win));
        REQUIRE(b.crossfit.size() == a.crossfit.size());
        for (std::size_t r = 0; r < a.crossfit.size(); ++r) {
            CHECK(b.crossfit[r].stationary == Approx(a.crossfit[r].stationary));
            CHECK(b.crossfit[r].held_out.standard_error ==
                  Approx(a.crossfit[r].held_out.standard_error));
        }
    }
}

TEST_CASE("New and Base swapped predict one minus the score", "[markov][analysis]") {
    auto collection = collect(corpus_files(), 2);
    CollectedGames swapped;
    for (const auto& [key, pairing] : collection.games.pairings) {
        PairingTally turned = pairing;
        std::swap(turned.moves[kNew], turned.moves[kBase]);
        std::swap(turned.names[kNew], turned.names[kBase]);
        for (auto& g : turned.games) {
            g.new_white = !g.new_white;
            g.new_score_halves = std::uint8_t(2 - g.new_score_halves);
        }
        swapped.pairings.emplace(key, std::move(turned));
    }
    swapped.positions = collection.games.positions;
    for (bool per_colour : {false, true}) {
        INFO("per colour " << per_colour);
        AnalysisSettings settings;
        settings.per_colour = per_colour;
        auto original = analyse(collection.games, classes(), settings);
        auto turned = analyse(swapped, classes(), settings);
        REQUIRE(original.pairings.size() == turned.pairings.size());
        for (std::size_t i = 0; i < original.pairings.size(); ++i) {
            const auto& a = original.pairings[i];
            const auto& b = turned.pairings[i];
            CHECK(b.actual.score == Approx(1 - a.actual.score));
            CHECK(b.stationary.overall.score() == Approx(1 - a.stationary.overall.score()));
            CHECK(b.stationary.overall.win == Approx(a.stationary.overall.loss));
            CHECK(b.model->overall.score() == Approx(1 - a.model->overall.score()));
            for (std::size_t r = 0; r < a.crossfit.size(); ++r) {
                CHECK(b.crossfit[r].stationary == Approx(1 - a.crossfit[r].stationary));
                CHECK(b.crossfit[r].baseline == Approx(1 - a.crossfit[r].baseline));
            }
        }
    }
}

TEST_CASE("the cross-fit summary compares each prediction with the baseline per pairing",
          "[markov][analysis]") {
    auto row = [](double stationary, double baseline, double held_out) {
        CrossFitRow r;
        r.stationary = stationary;
        r.baseline = baseline;
        r.held_out.score = held_out;
        r.held_out.standard_error = 0.01;
        return r;
    };
    std::vector<PairingResult> pairings(3);
    pairings[0].crossfit = {row(0.50, 0.52, 0.50), row(0.52, 0.50, 0.52)};
    pairings[1].crossfit = {row(0.60, 0.55, 0.60)};
    pairings[2].crossfit = {row(0.40, 0.40, 0.45)};
    // In-sample: the pairings' own predictions against their actual scores.
    pairings[0].evaluated = true;
    pairings[0].stationary.overall = {0.6, 0, 0.4};
    pairings[0].actual.score = 0.5;
    auto summary = summarize_crossfit(pairings);
    CHECK(summary.in_sample_stationary.points == 1);
    CHECK(summary.in_sample_stationary.mean_absolute_error == Approx(0.1));
    CHECK(summary.pairings == 3);
    CHECK(summary.stationary.points == 4);
    CHECK(summary.stationary.mean_absolute_error == Approx(0.05 / 4));
    CHECK(summary.baseline.mean_absolute_error == Approx((0.02 + 0.02 + 0.05 + 0.05) / 4));
    // Per pairing: (-0.02 - 0.02) / 2, -0.05, 0; their mean and its standard error.
    CHECK(summary.stationary_vs_baseline.mean == Approx(-0.07 / 3));
    double mean = -0.07 / 3;
    double variance = (std::pow(-0.02 - mean, 2) + std::pow(-0.05 - mean, 2) + mean * mean) / 2;
    CHECK(summary.stationary_vs_baseline.standard_error == Approx(std::sqrt(variance / 3)));
    CHECK(summary.noise_floor == Approx(std::sqrt(2 / M_PI) * 0.01));
    CHECK_FALSE(summary.model);
    CHECK_THAT(summary.verdict, Catch::Contains("not measurably"));
}
