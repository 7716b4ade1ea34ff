#include "wdl/markov/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace wdl::markov {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// More games per opening than this on average: the openings do not pair games.
constexpr double kMaxGamesPerPairedOpening = 8;

int class_count(const PairingTally& pairing) { return int(pairing.start_classes[0].size()); }

// The counts of one role's moves with the given colours in the selected folds.
Matrix move_counts(const PairingTally& pairing, int role, std::initializer_list<int> colours,
                   const std::array<bool, kFolds>& folds) {
    int n = class_count(pairing);
    Matrix counts(n);
    for (int colour : colours)
        for (int fold = 0; fold < kFolds; ++fold) {
            if (!folds[std::size_t(fold)]) continue;
            const auto& transitions = pairing.moves[role][colour][fold].transitions;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    counts.at(i, j) += double(transitions[std::size_t(i * n + j)]);
        }
    return counts;
}

Matrix sum(const Matrix& a, const Matrix& b) {
    Matrix total = a;
    for (int i = 0; i < a.size(); ++i)
        for (int j = 0; j < a.size(); ++j) total.at(i, j) += b.at(i, j);
    return total;
}

Wdl weigh(const std::vector<double>& limit, const std::vector<Wdl>& outcomes) {
    Wdl result;
    for (std::size_t i = 0; i < limit.size(); ++i) {
        result.win += limit[i] * outcomes[i].win;
        result.draw += limit[i] * outcomes[i].draw;
        result.loss += limit[i] * outcomes[i].loss;
    }
    return result;
}

}  // namespace

std::array<EngineChain, 2> engine_chains(const PairingTally& pairing,
                                         const MoveSelection& selection) {
    std::array<EngineChain, 2> chains;
    if (selection.per_colour) {
        for (int colour = 0; colour < 2; ++colour) {
            Matrix both = sum(move_counts(pairing, kNew, {colour}, selection.folds),
                              move_counts(pairing, kBase, {colour}, selection.folds));
            for (int role = 0; role < 2; ++role) {
                Matrix counts = move_counts(pairing, role, {colour}, selection.folds);
                auto estimate = estimate_transitions(counts, both);
                if (colour == 0) {
                    chains[role].as_white = std::move(estimate);
                    chains[role].counts_as_white = std::move(counts);
                } else {
                    chains[role].as_black = std::move(estimate);
                    chains[role].counts_as_black = std::move(counts);
                }
            }
        }
        return chains;
    }
    Matrix both = sum(move_counts(pairing, kNew, {0, 1}, selection.folds),
                      move_counts(pairing, kBase, {0, 1}, selection.folds));
    for (int role = 0; role < 2; ++role) {
        Matrix counts = move_counts(pairing, role, {0, 1}, selection.folds);
        chains[role].as_white = estimate_transitions(counts, both);
        chains[role].as_black = chains[role].as_white;
        chains[role].counts_as_white = counts;
        chains[role].counts_as_black = std::move(counts);
    }
    return chains;
}

std::vector<double> start_distribution(const PairingTally& pairing, const MoveSelection& selection,
                                       const ClassScheme& classes) {
    std::vector<double> start(std::size_t(classes.size()), 0.0);
    double total = 0;
    for (int fold = 0; fold < kFolds; ++fold) {
        if (!selection.folds[std::size_t(fold)]) continue;
        for (std::size_t i = 0; i < start.size(); ++i) {
            start[i] += double(pairing.start_classes[std::size_t(fold)][i]);
            total += double(pairing.start_classes[std::size_t(fold)][i]);
        }
    }
    if (total == 0) {
        start[std::size_t(classes.class_of(0))] = 1;
        return start;
    }
    for (auto& share : start) share /= total;
    return start;
}

ChainPrediction predict(const std::array<EngineChain, 2>& chains, const std::vector<double>& start,
                        const std::vector<Wdl>& class_outcomes) {
    ChainPrediction prediction;
    // A white move, then a black one: Black's own-view matrix turned to White's view.
    Matrix new_white =
        chains[kNew].as_white.probabilities * mirrored(chains[kBase].as_black.probabilities);
    Matrix base_white =
        chains[kBase].as_white.probabilities * mirrored(chains[kNew].as_black.probabilities);
    prediction.limit_new_white = limit_distribution(new_white, start);
    prediction.limit_base_white = limit_distribution(base_white, start);
    prediction.unique = closed_class_count(new_white) == 1 && closed_class_count(base_white) == 1;
    prediction.new_as_white = weigh(prediction.limit_new_white, class_outcomes);
    prediction.new_as_black = weigh(prediction.limit_base_white, class_outcomes).flipped();
    const Wdl& w = prediction.new_as_white;
    const Wdl& b = prediction.new_as_black;
    prediction.overall = {(w.win + b.win) / 2, (w.draw + b.draw) / 2, (w.loss + b.loss) / 2};
    return prediction;
}

std::string ActualScore::error_basis() const {
    auto count = [](std::uint64_t n, const char* what) {
        return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
    };
    if (!pentanomial())
        return fmt::format("trinomial, {} in {}{}", count(games, "game"),
                           count(openings, "opening"), paired ? "" : ": not paired by opening");
    std::string text = fmt::format("pentanomial, {}", count(pairs, "opening pair"));
    if (singles > 0) text += ", " + count(singles, "single game");
    if (larger_groups > 0) text += ", " + count(larger_groups, "repeated opening");
    return text;
}

std::vector<GameRecord> games_in(const PairingTally& pairing,
                                 const std::array<bool, kFolds>& folds) {
    std::vector<GameRecord> games;
    for (const auto& game : pairing.games)
        if (folds[std::size_t(fold_of(game.opening))]) games.push_back(game);
    return games;
}

ActualScore actual_score(std::span<const GameRecord> games) {
    ActualScore actual;
    actual.games = games.size();
    if (games.empty()) {
        actual.score = actual.standard_error = kNaN;
        return actual;
    }
    double points = 0;
    for (const auto& game : games) {
        actual.wins += game.new_score_halves == 2;
        actual.draws += game.new_score_halves == 1;
        actual.losses += game.new_score_halves == 0;
        points += game.new_score_halves / 2.0;
    }
    double g = double(actual.games);
    actual.score = points / g;
    actual.shares = {double(actual.wins) / g, double(actual.draws) / g, double(actual.losses) / g};

    // Clusters: the games of one opening, or every game alone.
    std::vector<GameRecord> sorted(games.begin(), games.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const GameRecord& a, const GameRecord& b) { return a.opening < b.opening; });
    struct Cluster {
        double games = 0, points = 0;
        int whites = 0;
    };
    std::vector<Cluster> openings;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        if (i == 0 || sorted[i].opening != sorted[i - 1].opening) openings.push_back({});
        openings.back().games += 1;
        openings.back().points += sorted[i].new_score_halves / 2.0;
        openings.back().whites += sorted[i].new_white;
    }
    actual.openings = openings.size();
    actual.paired = g / double(openings.size()) <= kMaxGamesPerPairedOpening;
    std::vector<Cluster> clusters;
    if (actual.paired) {
        clusters = openings;
        for (const auto& cluster : openings) {
            bool pair = cluster.games == 2 && cluster.whites == 1;
            actual.pairs += pair;
            actual.singles += cluster.games == 1;
            actual.larger_groups += !pair && cluster.games > 1;
        }
    } else {
        for (const auto& game : games) clusters.push_back({1, game.new_score_halves / 2.0, 0});
        actual.singles = actual.games;
    }
    if (clusters.size() < 2) {
        actual.standard_error = kNaN;
        return actual;
    }
    // The variance of the mean from cluster totals: sum (S_c - n_c s)^2 / G^2. With pairs it is
    // the pentanomial variance over pairs / N, with single games the trinomial one / G.
    double squares = 0;
    for (const auto& cluster : clusters) {
        double deviation = cluster.points - cluster.games * actual.score;
        squares += deviation * deviation;
    }
    actual.standard_error = std::sqrt(squares) / g;
    return actual;
}

double elo_of_score(double score) {
    if (!(score > 0)) return -std::numeric_limits<double>::infinity();
    if (!(score < 1)) return std::numeric_limits<double>::infinity();
    return -400 * std::log10(1 / score - 1);
}

std::array<Conformance, 2> conformance(const PairingTally& pairing) {
    std::array<Conformance, 2> result;
    int n = class_count(pairing);
    for (int role = 0; role < 2; ++role) {
        result[role].by_class.assign(std::size_t(n), DropTally{});
        for (int colour = 0; colour < 2; ++colour)
            for (int fold = 0; fold < kFolds; ++fold) {
                const auto& drops = pairing.moves[role][colour][fold].drops;
                for (std::size_t i = 0; i < drops.size(); ++i) {
                    result[role].by_class[i].merge(drops[i]);
                    result[role].overall.merge(drops[i]);
                }
            }
    }
    return result;
}

std::array<std::vector<std::uint64_t>, 2> class_occupancy(const PairingTally& pairing) {
    std::array<std::vector<std::uint64_t>, 2> occupancy;
    int n = class_count(pairing);
    for (int role = 0; role < 2; ++role) {
        occupancy[role].assign(std::size_t(n), 0);
        for (int colour = 0; colour < 2; ++colour)
            for (int fold = 0; fold < kFolds; ++fold) {
                const auto& transitions = pairing.moves[role][colour][fold].transitions;
                for (int i = 0; i < n; ++i)
                    for (int j = 0; j < n; ++j)
                        occupancy[role][std::size_t(i)] += transitions[std::size_t(i * n + j)];
            }
    }
    return occupancy;
}

}  // namespace wdl::markov
