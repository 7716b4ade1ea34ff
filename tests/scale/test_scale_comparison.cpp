#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "rescaled_games.hpp"
#include "sanitizer.hpp"
#include "test_data.hpp"
#include "wdl/games/file_selection.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_math.hpp"
#include "wdl/scale/paired_counter.hpp"
#include "wdl/scale/scale_comparison.hpp"
#include "wdl/stats/random.hpp"
#include "wdl/synth/sampler.hpp"

using namespace wdl;

namespace {

model::Normalization default_normalization() {
    return model::Normalization::from_json(model::kDefaultNormalizeData);
}

// Games of two engines whose evals follow Stockfish's model, New's multiplied by `factor` (only
// where positive when `positive_only`): every position's result follows the model at its true
// eval, and the positions of a game share its result (New's, and the reverse for Base), as
// synthWDL draws games.
struct SyntheticTest {
    int games = 600, positions_per_game = 30, groups = 10;
    double factor = 1.15;
    bool positive_only = false;
    double delta = 0;  // New's strength term (Base's is -delta), strength_model.hpp
    model::WdlModel model = synth::stockfish_model();  // the true one
    std::uint64_t seed = 1;
};

// W, D, L of the strength model at a shape's true eval: the symmetric model at eval x + b delta.
std::array<double, 3> probabilities_with(const model::WdlModel& model,
                                         const model::Normalization& normalization,
                                         const synth::PositionShape& shape, double delta) {
    if (delta == 0) return synth::outcome_probabilities(model, normalization, shape);
    double eval = normalization.to_internal(shape.eval, shape.move, shape.material);
    double mom = shape.material, x = eval + model.b(mom) * delta;
    double win = model.win(x, mom), loss = model.loss(x, mom);
    return {win, std::max(0.0, 1 - win - loss), loss};
}

// Stockfish's model with spreads 2.5 times its own: a draw rate at eval 0 of some 80 % instead
// of 99 %, where a strength difference of a few Elo is a small shift of the logits.
model::WdlModel wide_model() {
    auto model = synth::stockfish_model();
    for (double& b : model.bs) b *= 2.5;
    return model;
}

// The strength term whose Elo (strength_elo in the true model) is `elo`, by bisection.
double delta_of_elo(double elo, const model::WdlModel& model) {
    double low = -10, high = 10;
    for (int step = 0; step < 60; ++step) {
        double middle = (low + high) / 2;
        (scale::strength_elo(middle, model) < elo ? low : high) = middle;
    }
    return (low + high) / 2;
}

scale::PairingCounts synthetic_pairing(const SyntheticTest& test) {
    const auto& model = test.model;
    const auto normalization = default_normalization();
    synth::SyntheticPositions source(5);
    stats::Random random(test.seed);
    scale::PairingCounts pairing(test.groups);
    pairing.names = {"New-synthetic", "Base-synthetic"};
    auto draw_outcome = [&](const synth::PositionShape& shape) {
        auto p = probabilities_with(model, normalization, shape, test.delta);
        double u = random.uniform();
        return u < p[0]          ? counts::Outcome::Win
               : u < p[0] + p[1] ? counts::Outcome::Draw
                                 : counts::Outcome::Loss;
    };
    for (int game = 0; game < test.games; ++game) {
        int group = int(random.below(std::uint64_t(test.groups)));
        counts::Outcome new_result = draw_outcome(source.draw(random));
        for (int k = 0; k < test.positions_per_game; ++k) {
            games::Role role = k % 2 == 0 ? games::kNew : games::kBase;
            counts::Outcome result =
                role == games::kNew ? new_result : counts::opposite(new_result);
            synth::PositionShape shape;
            // Each engine's positions follow the model with its own sign of the strength term (the
            // game's result, drawn with New's, has the same chance by Base's: the evals are drawn
            // symmetric about 0).
            double delta = role == games::kNew ? test.delta : -test.delta;
            do {
                shape = source.draw(random);
            } while (random.uniform() >=
                     probabilities_with(model, normalization, shape, delta)[std::size_t(result)]);
            int eval = shape.eval;
            if (role == games::kNew && (!test.positive_only || eval > 0))
                eval = std::clamp(counts::bin_eval(int(std::lround(eval * test.factor)), 5),
                                  -counts::kMaxEval, counts::kMaxEval);
            pairing.counts.add(counts::pack_key({result, shape.move, shape.material, eval}),
                               pairing.group_of(role, group));
            ++pairing.positions[role];
        }
        ++pairing.games;
    }
    return pairing;
}

scale::ScaleOptions options_with(int threads, bool asymmetry) {
    scale::ScaleOptions options;
    options.threads = threads;
    options.asymmetry = asymmetry;
    options.fit.pawn_value = default_normalization().pawn_value();
    return options;
}

bool covers(const fit::ResampledEstimate& estimate, double value) {
    return estimate.low <= value && value <= estimate.high;
}

// The corpus with New's evals rewritten, in a folder of its own.
std::vector<games::PairedGameFile> rescaled_corpus(const std::filesystem::path& folder,
                                                   double factor, bool positive_only) {
    std::filesystem::remove_all(folder);
    std::vector<games::PairedGameFile> files;
    for (const auto& path : games::list_game_files(testing::corpus_path(), true)) {
        auto target = folder / (path.parent_path().filename().string() + "-" +
                                path.filename().replace_extension("").string());
        std::filesystem::create_directories(folder);
        std::ofstream(target) << testing::rescaled_evals(testing::read_decompressed(path), "New-",
                                                         factor, positive_only);
        files.push_back({target, path.parent_path().filename().string(), {}, {}});
    }
    return files;
}

scale::ScaleComparison compare_corpus(const std::vector<games::PairedGameFile>& files,
                                      const std::filesystem::path& folder, int threads,
                                      bool asymmetry = false) {
    std::vector<std::filesystem::path> paths;
    for (const auto& file : files) paths.push_back(file.path);
    scan::GameGrouping grouping({counts::GroupBy::Game, 32}, paths, folder, paths);
    scale::PairedCountingRules rules;
    rules.grouping = &grouping;
    auto collection = scale::count_pairings(files, rules, threads);
    std::vector<const scale::PairingCounts*> pairings;
    for (const auto& [key, pairing] : collection.pairings) pairings.push_back(&pairing);
    return scale::compare_scales("all", pairings, default_normalization(),
                                 options_with(threads, asymmetry));
}

}  // namespace

TEST_CASE("the bundled games with New's evals x1.15 give a ratio whose interval covers 1.15",
          "[scale][comparison]") {
    auto folder = std::filesystem::temp_directory_path() / "wdl_test_scale_corpus";
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        auto plain = compare_corpus(rescaled_corpus(folder, 1.0, false), folder, threads);
        auto scaled = compare_corpus(rescaled_corpus(folder, 1.15, false), folder, threads);
        REQUIRE(plain.figures.size() == 3);
        REQUIRE(scaled.figures.size() == 3);
        const auto& before = plain.figures[0];
        const auto& after = scaled.figures[0];
        // Stockfish 15.1 against itself: the same scale; x1.15 moves it by that (up to rounding
        // the comments to centipawns and binning).
        CHECK(covers(before.paired, 1.0));
        CHECK(covers(after.paired, 1.15));
        CHECK(after.paired.estimate / before.paired.estimate == Approx(1.15).epsilon(0.01));
        // The shared games make the paired error far smaller than the unpaired one.
        CHECK(after.paired.standard_error < 0.5 * after.unpaired_error);
        // The spread scales alike; the draw rate at 0 does not move.
        CHECK(scaled.figures[1].paired.estimate / plain.figures[1].paired.estimate ==
              Approx(1.15).epsilon(0.02));
        CHECK(std::abs(scaled.figures[2].paired.estimate - plain.figures[2].paired.estimate) <
              0.01);
    }
    std::filesystem::remove_all(folder);
}

TEST_CASE("the bundled games with New's positive evals x1.15 move New's asymmetry by that factor",
          "[scale][comparison][asymmetry]") {
    auto folder = std::filesystem::temp_directory_path() / "wdl_test_scale_asymmetry";
    auto plain = compare_corpus(rescaled_corpus(folder, 1.0, false), folder, 2, true);
    auto scaled = compare_corpus(rescaled_corpus(folder, 1.15, true), folder, 2, true);
    for (const auto* comparison : {&plain, &scaled})
        for (const auto& side : comparison->asymmetry) REQUIRE((side && side->ratio));
    // Stockfish 15.1 against itself: neither engine asymmetric, no strength difference, and the
    // two engines' asymmetries agree (their log ratios within the intervals' combined reach).
    const auto& new_plain = *plain.asymmetry[games::kNew]->ratio;
    const auto& base_plain = *plain.asymmetry[games::kBase]->ratio;
    CHECK(covers(new_plain, 1.0));
    CHECK(covers(base_plain, 1.0));
    REQUIRE(plain.strength);
    CHECK(covers(plain.strength->elo, 0.0));
    CHECK(std::abs(std::log(new_plain.estimate / base_plain.estimate)) <
          std::hypot(std::log(new_plain.high / new_plain.estimate),
                     std::log(base_plain.high / base_plain.estimate)));
    auto ratio = [](const scale::ScaleComparison& comparison, games::Role role) {
        return comparison.asymmetry[role]->ratio->estimate;
    };
    // 800 games decide a side's scale to some 10 %: the check is the change, which the same
    // games share, not the asymmetry itself. Base's evals are untouched; it shares the strength
    // term with New, which New's rescaled evals move a little: its asymmetry within 1 %.
    CHECK(ratio(scaled, games::kNew) / ratio(plain, games::kNew) == Approx(1.15).epsilon(0.03));
    CHECK(ratio(scaled, games::kBase) == Approx(ratio(plain, games::kBase)).epsilon(0.01));
    std::filesystem::remove_all(folder);
}

TEST_CASE("the paired interval of the scale ratio covers the true factor about 95 % of the time",
          "[scale][comparison][coverage]") {
    // Independent synthetic tests (fixed seeds) whose New evals are 1.15 times Base's: 30, or
    // 8 under a sanitizer (tests/support/sanitizer.hpp).
    const int kTests = testing::repetitions(30, 8);
    int covered = 0, covered_one = 0;
    double paired = 0, unpaired = 0;
    for (int t = 0; t < kTests; ++t) {
        SyntheticTest test;
        test.seed = 1000 + std::uint64_t(t);
        auto pairing = synthetic_pairing(test);
        auto comparison = scale::compare_scales("synthetic", {&pairing}, default_normalization(),
                                                options_with(t % 2 + 1, false));
        REQUIRE(comparison.figures.size() == 3);
        const auto& ratio = comparison.figures[0];
        covered += covers(ratio.paired, 1.15);
        covered_one += covers(ratio.paired, 1.0);
        paired += ratio.paired.standard_error;
        unpaired += ratio.unpaired_error;
    }
    // 3.3 binomial standard deviations below 0.95 n: 25 of 30 (24 or fewer has a probability
    // below 1 %), 6 of 8.
    CHECK(covered >= testing::fewest_covers_of_95(kTests));
    CHECK(covered_one <= kTests / 10);
    // Positions of the same games: the paired error is smaller.
    CHECK(paired < unpaired);
}

TEST_CASE("an engine whose positive evals are scaled is found asymmetric, the other not",
          "[scale][comparison][asymmetry]") {
    SyntheticTest test;
    test.games = 6000;
    test.positions_per_game = 20;
    test.groups = 20;
    test.positive_only = true;
    test.seed = 7;
    auto pairing = synthetic_pairing(test);
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        auto comparison = scale::compare_scales("synthetic", {&pairing}, default_normalization(),
                                                options_with(threads, true));
        REQUIRE(comparison.asymmetry[games::kNew]);
        REQUIRE(comparison.asymmetry[games::kBase]);
        const auto& asymmetric = *comparison.asymmetry[games::kNew];
        const auto& symmetric = *comparison.asymmetry[games::kBase];
        REQUIRE(asymmetric.ratio);
        REQUIRE(symmetric.ratio);
        CHECK(covers(*asymmetric.ratio, 1.15));
        CHECK_FALSE(covers(*asymmetric.ratio, 1.0));
        CHECK(covers(*symmetric.ratio, 1.0));
        // Held out, a scale per side predicts New's games better, and not Base's.
        REQUIRE(asymmetric.held_out);
        REQUIRE(symmetric.held_out);
        CHECK(asymmetric.held_out->difference < -2 * asymmetric.held_out->error);
        CHECK(symmetric.held_out->difference > -2 * symmetric.held_out->error);
    }
}

namespace {

// Synthetic pairings of the same program at two strengths (New's strength term `delta`), 1,200
// games of 20 positions in 24 groups, New's positive evals x`factor_ahead`; how often each engine's
// interval of its asymmetry net of strength covers the truth (New's factor, Base's 1).
struct Coverage {
    int tests = 0, new_covered = 0, base_covered = 0, strength_covered = 0;
    double new_ratio = 0, base_ratio = 0;  // mean estimates
};

Coverage strength_coverage(double elo, double factor_ahead, int tests, std::uint64_t seed) {
    Coverage coverage;
    const auto truth = wide_model();
    const double delta = delta_of_elo(elo, truth);
    for (int t = 0; t < tests; ++t) {
        SyntheticTest test;
        test.games = 1200;
        test.positions_per_game = 20;
        test.groups = 24;
        test.factor = factor_ahead;
        test.positive_only = true;
        test.delta = delta;
        test.model = truth;
        test.seed = seed + std::uint64_t(t);
        auto pairing = synthetic_pairing(test);
        auto options = options_with(t % 2 + 1, true);
        options.folds = 2;  // the held-out comparison is not what these tests check
        auto comparison =
            scale::compare_scales("synthetic", {&pairing}, default_normalization(), options);
        REQUIRE(comparison.strength);
        REQUIRE(comparison.asymmetry[games::kNew]->ratio);
        REQUIRE(comparison.asymmetry[games::kBase]->ratio);
        ++coverage.tests;
        const auto& new_ratio = *comparison.asymmetry[games::kNew]->ratio;
        const auto& base_ratio = *comparison.asymmetry[games::kBase]->ratio;
        coverage.new_covered += covers(new_ratio, factor_ahead);
        coverage.base_covered += covers(base_ratio, 1.0);
        coverage.strength_covered += covers(comparison.strength->elo, elo);
        coverage.new_ratio += new_ratio.estimate / tests;
        coverage.base_ratio += base_ratio.estimate / tests;
    }
    return coverage;
}

}  // namespace

TEST_CASE("scale asymmetry net of strength: symmetric evals at 0-60 Elo, both intervals cover 1",
          "[scale][comparison][asymmetry][coverage]") {
    // 24 synthetic tests at each difference (4 under a sanitizer): 24 draws of a 95 % interval
    // give at least fewest_covers_of_95(24) = 20 but for a chance below 0.1 %.
    const int kTests = testing::repetitions(24, 4);
    for (double elo : {0.0, 10.0, 30.0, 60.0}) {
        CAPTURE(elo);
        auto coverage = strength_coverage(elo, 1.0, kTests, 5000 + std::uint64_t(elo));
        CAPTURE(coverage.new_covered, coverage.base_covered, coverage.strength_covered,
                coverage.new_ratio, coverage.base_ratio);
        WARN(
            fmt::format("{} Elo, symmetric: New covers 1 in {}/{}, Base in {}/{}, the Elo in {}; "
                        "mean ratios {:.3f} {:.3f}",
                        elo, coverage.new_covered, kTests, coverage.base_covered, kTests,
                        coverage.strength_covered, coverage.new_ratio, coverage.base_ratio));
        CHECK(coverage.new_covered >= testing::fewest_covers_of_95(kTests));
        CHECK(coverage.base_covered >= testing::fewest_covers_of_95(kTests));
        CHECK(coverage.strength_covered >= testing::fewest_covers_of_95(kTests));
    }
}

TEST_CASE("scale asymmetry net of strength: New's positive evals x1.15 at 0-60 Elo are found",
          "[scale][comparison][asymmetry][coverage]") {
    const int kTests = testing::repetitions(24, 4);
    for (double elo : {0.0, 10.0, 30.0, 60.0}) {
        CAPTURE(elo);
        auto coverage = strength_coverage(elo, 1.15, kTests, 7000 + std::uint64_t(elo));
        WARN(
            fmt::format("{} Elo, New x1.15 ahead: New covers 1.15 in {}/{}, Base 1 in {}/{}, "
                        "the Elo in {}; mean ratios {:.3f} {:.3f}",
                        elo, coverage.new_covered, kTests, coverage.base_covered, kTests,
                        coverage.strength_covered, coverage.new_ratio, coverage.base_ratio));
        CHECK(coverage.new_covered >= testing::fewest_covers_of_95(kTests));
        CHECK(coverage.base_covered >= testing::fewest_covers_of_95(kTests));
    }
}

TEST_CASE("the scale comparison's strength model fitted to exact probabilities returns them",
          "[scale][comparison][strength]") {
    // Counts in proportion to the model's W, D, L with known scales per side, strength and
    // spread factors: maximum likelihood returns them, from 0.
    const auto model = synth::stockfish_model();
    const scale::StrengthParameters truth{
        std::log(1.15), std::log(0.95), std::log(1.02), std::log(0.9), 0.4,
        std::log(1.1),  std::log(0.95)};
    std::array<std::vector<fit::MomData>, 2> moms;
    for (int role = 0; role < 2; ++role) {
        double sign = role == 0 ? 1 : -1;
        double delta = sign * truth[scale::kDelta];
        for (int mom = 20; mom <= 76; mom += 8) {
            fit::MomData data;
            data.mom = mom;
            double b = std::exp(truth[std::size_t(scale::kNewSpread + role)]) * model.b(mom);
            for (int eval = -600; eval <= 600; eval += 20) {
                double s = std::exp(truth[std::size_t(2 * role + (eval < 0 ? 1 : 0))]);
                double x = eval / s;
                double win = model::logistic((x - model.a(mom)) / b + delta);
                double loss = model::logistic((-x - model.a(mom)) / b - delta);
                fit::Cell cell{double(eval), 1e4 * win, 1e4 * (1 - win - loss), 1e4 * loss};
                data.wins += cell.wins;
                data.total += cell.total();
                data.cells.push_back(cell);
            }
            moms[std::size_t(role)].push_back(std::move(data));
        }
    }
    auto fit = scale::fit_strength_model(moms, {&model, &model}, {true, true});
    REQUIRE(fit.converged);
    for (std::size_t i = 0; i < truth.size(); ++i) {
        CAPTURE(i);
        CHECK(fit.parameters[i] == Approx(truth[i]).margin(1e-6));
    }
    // Without New's scales the fit is worse, and the strength term moves to take some of them.
    auto without = scale::fit_strength_model(moms, {&model, &model}, {false, true});
    REQUIRE(without.converged);
    CHECK(without.loss > fit.loss);
    CHECK(without.parameters[scale::kNewAhead] == 0);
}
