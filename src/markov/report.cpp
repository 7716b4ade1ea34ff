#include "wdl/markov/report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "wdl/games/reading_report.hpp"

namespace wdl::markov {
namespace {

using Json = nlohmann::ordered_json;

// A number for JSON: null where it is not finite.
Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

std::string elo_text(double score) {
    double elo = elo_of_score(score);
    if (std::isnan(elo)) return "n/a";
    if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
    double rounded = std::round(elo * 10) / 10;
    return fmt::format("{:+.1f}", rounded == 0 ? 0.0 : rounded);  // never "-0.0"
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? "n/a" : fmt::format("{:.1f}%", 100.0 * double(part) / double(whole));
}

double mean_positive_drop(const DropTally& drops) {
    return drops.moves == 0 ? std::nan("") : double(drops.positive_sum) / double(drops.moves) / 100;
}

// The classes' labels, the first few of a long list.
std::string class_list(const ClassScheme& classes, const std::vector<int>& rows) {
    constexpr std::size_t kShown = 4;
    std::string text;
    for (std::size_t i = 0; i < std::min(rows.size(), kShown); ++i)
        text += fmt::format("{}{}", i == 0 ? "" : ", ", classes.label(rows[i]));
    return rows.size() > kShown ? text + ", ..." : text;
}

// One row of the table of scores: name, score, se, Elo, its interval, W, D, L.
std::string score_row(const std::string& name, const std::string& score, const std::string& error,
                      const std::string& elo, const std::string& interval, const std::string& win,
                      const std::string& draw, const std::string& loss) {
    return fmt::format("  {:<12} {:>7}  {:>7}  {:>7}  {:<18}  {:>5}  {:>5}  {:>5}\n", name, score,
                       error, elo, interval, win, draw, loss);
}

std::string score_row(const std::string& name, double score, const std::string& error,
                      const std::string& interval, const Wdl& wdl) {
    return score_row(name, fmt::format("{:.4f}", score), error, elo_text(score), interval,
                     fmt::format("{:.3f}", wdl.win), fmt::format("{:.3f}", wdl.draw),
                     fmt::format("{:.3f}", wdl.loss));
}

// "3 from both engines' moves (<-2.00, ...), 1 kept (...)" or "none".
std::string empty_rows_text(const TransitionMatrix& estimate, const ClassScheme& classes) {
    std::string text;
    if (!estimate.rows_from_fallback.empty())
        text += fmt::format("{} from both engines' moves ({})", estimate.rows_from_fallback.size(),
                            class_list(classes, estimate.rows_from_fallback));
    if (!estimate.rows_kept.empty())
        text += fmt::format("{}{} kept ({})", text.empty() ? "" : ", ", estimate.rows_kept.size(),
                            class_list(classes, estimate.rows_kept));
    return text.empty() ? "none" : text;
}

std::string empty_rows_line(const PairingResult& pairing, const ChainDescription& chains) {
    std::string text = "  Empty rows:";
    for (int role = 0; role < 2; ++role) {
        const auto& chain = pairing.chains[role];
        if (chains.per_colour) {
            text +=
                fmt::format(" {} as White {}, as Black {}{}", kRoleNames[role],
                            empty_rows_text(chain.as_white, chains.classes),
                            empty_rows_text(chain.as_black, chains.classes), role == 0 ? ";" : ".");
        } else {
            text +=
                fmt::format(" {} {}{}", kRoleNames[role],
                            empty_rows_text(chain.as_white, chains.classes), role == 0 ? ";" : ".");
        }
    }
    return text + "\n";
}

const char* mode_text(TransitionMode mode) {
    return mode == TransitionMode::Own
               ? "from the mover's eval to the opponent's next eval, turned to the mover's view"
               : "from the opponent's previous eval to its next eval, both turned to the mover's "
                 "view";
}

Json quality_json(const PredictionQuality& quality) {
    return {{"points", quality.points},
            {"meanAbsoluteError", number(quality.mean_absolute_error)},
            {"correlation", number(quality.correlation)}};
}

Json difference_json(const ErrorDifference& difference) {
    return {{"pairings", difference.pairings},
            {"mean", number(difference.mean)},
            {"standardError", number(difference.standard_error)},
            {"interval95",
             {number(difference.mean - kNormal975 * difference.standard_error),
              number(difference.mean + kNormal975 * difference.standard_error)}}};
}

Json wdl_json(const Wdl& wdl) { return {number(wdl.win), number(wdl.draw), number(wdl.loss)}; }

Json prediction_json(const ChainPrediction& prediction) {
    return {{"score", number(prediction.overall.score())},
            {"wdl", wdl_json(prediction.overall)},
            {"elo", number(elo_of_score(prediction.overall.score()))},
            {"newAsWhite",
             {{"score", number(prediction.new_as_white.score())},
              {"wdl", wdl_json(prediction.new_as_white)}}},
            {"newAsBlack",
             {{"score", number(prediction.new_as_black.score())},
              {"wdl", wdl_json(prediction.new_as_black)}}},
            {"limitNewWhite", prediction.limit_new_white},
            {"limitBaseWhite", prediction.limit_base_white},
            {"unique", prediction.unique}};
}

Json actual_json(const ActualScore& actual) {
    double low = actual.score - kNormal975 * actual.standard_error;
    double high = actual.score + kNormal975 * actual.standard_error;
    return {{"score", number(actual.score)},
            {"se", number(actual.standard_error)},
            {"seBasis", actual.pentanomial() ? "pentanomial" : "trinomial"},
            {"wdl", wdl_json(actual.shares)},
            {"counts", {{"W", actual.wins}, {"D", actual.draws}, {"L", actual.losses}}},
            {"elo", number(elo_of_score(actual.score))},
            {"eloInterval95", {number(elo_of_score(low)), number(elo_of_score(high))}},
            {"openings", actual.openings},
            {"pairs", actual.pairs},
            {"singles", actual.singles},
            {"repeatedOpenings", actual.larger_groups}};
}

Json matrix_json(const Matrix& matrix) {
    Json rows = Json::array();
    for (int i = 0; i < matrix.size(); ++i) {
        Json row = Json::array();
        for (int j = 0; j < matrix.size(); ++j) row.push_back(matrix.at(i, j));
        rows.push_back(std::move(row));
    }
    return rows;
}

Json transition_json(const TransitionMatrix& estimate, const Matrix& counts) {
    return {{"counts", matrix_json(counts)},
            {"probabilities", matrix_json(estimate.probabilities)},
            {"rowsFromBothEngines", estimate.rows_from_fallback},
            {"rowsKept", estimate.rows_kept}};
}

Json drops_json(const DropTally& drops) {
    auto share = [&](std::uint64_t part) {
        return drops.moves == 0 ? Json(nullptr) : Json(double(part) / double(drops.moves));
    };
    return {{"moves", drops.moves},
            {"dropAtMost0", share(drops.at_most_0)},
            {"dropAtMost0.10", share(drops.at_most_10)},
            {"dropAtMost0.30", share(drops.at_most_30)},
            {"meanPositiveDrop", number(mean_positive_drop(drops))}};
}

Json pairing_json(const PairingResult& pairing, bool per_colour) {
    Json json;
    json["test"] = pairing.test.empty() ? Json(nullptr) : Json(pairing.test);
    json["new"] = pairing.names[kNew];
    json["base"] = pairing.names[kBase];
    json["games"] = pairing.actual.games;
    json["gamesOutsideChains"] = pairing.games_outside_chains;
    json["actual"] = actual_json(pairing.actual);
    json["start"] = pairing.start;
    json["stationary"] = pairing.evaluated ? prediction_json(pairing.stationary) : Json(nullptr);
    json["model"] =
        pairing.evaluated && pairing.model ? prediction_json(*pairing.model) : Json(nullptr);
    Json rows = Json::array();
    for (const auto& row : pairing.crossfit) {
        rows.push_back({{"trainingFold", row.training_fold},
                        {"trainingGames", row.training_games},
                        {"trainingOpenings", row.training_openings},
                        {"stationary", number(row.stationary)},
                        {"model", row.model ? number(*row.model) : Json(nullptr)},
                        {"baseline", number(row.baseline)},
                        {"heldOut", actual_json(row.held_out)}});
    }
    json["crossfit"] = {
        {"rows", std::move(rows)},
        {"unavailable", pairing.crossfit_unavailable.empty() ? Json(nullptr)
                                                             : Json(pairing.crossfit_unavailable)}};
    Json matrices;
    Json conformance;
    for (int role = 0; role < 2; ++role) {
        const auto& chain = pairing.chains[role];
        const char* name = role == kNew ? "new" : "base";
        if (per_colour) {
            matrices[name] = {{"white", transition_json(chain.as_white, chain.counts_as_white)},
                              {"black", transition_json(chain.as_black, chain.counts_as_black)}};
        } else {
            matrices[name] = transition_json(chain.as_white, chain.counts_as_white);
        }
        Json by_class = Json::array();
        for (const auto& drops : pairing.conformance[role].by_class)
            by_class.push_back(drops_json(drops));
        conformance[name] = drops_json(pairing.conformance[role].overall);
        conformance[name]["byClass"] = std::move(by_class);
        conformance[name]["occupancy"] = pairing.occupancy[role];
    }
    json["matrices"] = std::move(matrices);
    json["conformance"] = std::move(conformance);
    return json;
}

std::string skipped_text(const CollectedGames& games) {
    std::string text;
    for (const auto& [reason, count] : games.skipped)
        text += fmt::format("{}{}: {}", text.empty() ? " (" : ", ", reason, count);
    return text.empty() ? text : text + ")";
}

}  // namespace

std::string format_settings(const ChainDescription& chains, const MarkovResults& results) {
    const auto& classes = chains.classes;
    std::string bounds;
    for (double bound : classes.positive_bounds()) bounds += fmt::format(" {:.2f}", bound / 100);
    std::string text = fmt::format("Classes: {}, {}.\n", classes.name(), classes.description());
    text += fmt::format("  positive bounds (pawns):{}{}; mirrored below 0.\n",
                        classes.centre() == Centre::ZeroClass ? " 0 |" : "", bounds);
    text += fmt::format("Transitions: {}; {}.\n", mode_text(chains.mode),
                        chains.per_colour
                            ? "one matrix per colour (Black's mirrored into White's view)"
                            : "both colours pooled in the mover's view (Alliot's mirror rule)");
    text +=
        "Empty rows: a class the engine never moved from takes both engines' moves from it; "
        "with none, the class is kept.\n";
    if (results.class_outcomes) {
        text += fmt::format("Model W/D/L per class: {}.\n", results.class_outcomes->model);
    } else {
        text += fmt::format("Model W/D/L per class: none ({}).\n", results.model_unavailable);
    }
    return text;
}

std::string format_pairing(const PairingResult& pairing, const ChainDescription& chains) {
    const auto& actual = pairing.actual;
    std::string text =
        fmt::format("\nPairing {}{} vs {}\n", pairing.test.empty() ? "" : pairing.test + ": ",
                    pairing.names[kNew], pairing.names[kBase]);
    text += fmt::format("  Games: {} ({}); evaluated moves: New {}, Base {}.\n", actual.games,
                        actual.error_basis(), pairing.conformance[kNew].overall.moves,
                        pairing.conformance[kBase].overall.moves);
    if (pairing.games_outside_chains > 0)
        text += fmt::format(
            "  {} of the games count in the score only (a time loss or a broken record: no "
            "chain reads them).\n",
            pairing.games_outside_chains);
    text += score_row("", "score", "se", "Elo", "[95% interval]", "W", "D", "L");
    double low = actual.score - kNormal975 * actual.standard_error;
    double high = actual.score + kNormal975 * actual.standard_error;
    bool estimated = std::isfinite(actual.standard_error);
    text += score_row(
        "actual", actual.score, estimated ? fmt::format("{:.4f}", actual.standard_error) : "n/a",
        estimated ? fmt::format("[{}, {}]", elo_text(low), elo_text(high)) : "n/a (one cluster)",
        actual.shares);
    if (!pairing.evaluated) return text + "  No evaluated moves: no chains, no predictions.\n";
    text += score_row("stationary", pairing.stationary.overall.score(), "", "",
                      pairing.stationary.overall);
    if (pairing.model)
        text += score_row("model-aware", pairing.model->overall.score(), "", "",
                          pairing.model->overall);
    if (!pairing.stationary.unique)
        text +=
            "  Note: a chain has several closed classes; its limit depends on where games "
            "start.\n";
    text += "  Cross-fit (chains of one fold of openings predict the other fold's score):\n";
    for (const auto& row : pairing.crossfit) {
        text += fmt::format(
            "    fold {} -> {}: {} openings -> {}: stationary {:.4f}, model-aware {}, baseline "
            "{:.4f}; held-out actual {:.4f} +- {:.4f}\n",
            row.training_fold, 1 - row.training_fold, row.training_openings, row.held_out.openings,
            row.stationary, row.model ? fmt::format("{:.4f}", *row.model) : "n/a", row.baseline,
            row.held_out.score, row.held_out.standard_error);
    }
    if (!pairing.crossfit_unavailable.empty())
        text += fmt::format("    {}: {}.\n", pairing.crossfit.empty() ? "none" : "partly",
                            pairing.crossfit_unavailable);
    text += "  Conformance (drop = own eval - opponent's next eval, in pawns):\n";
    text += "           moves  drop<=0  <=0.10  <=0.30  mean positive drop\n";
    for (int role = 0; role < 2; ++role) {
        const auto& drops = pairing.conformance[role].overall;
        text += fmt::format("    {:<4} {:>8}  {:>7}  {:>6}  {:>6}  {:.3f}\n", kRoleNames[role],
                            drops.moves, percent(drops.at_most_0, drops.moves),
                            percent(drops.at_most_10, drops.moves),
                            percent(drops.at_most_30, drops.moves), mean_positive_drop(drops));
    }
    return text + empty_rows_line(pairing, chains);
}

std::string format_summary(const MarkovResults& results, const CollectedGames& games) {
    std::string text = fmt::format(
        "\nSummary: {} pairings; games: {} read, {} accepted, {} skipped{}; {} without an "
        "evaluated move pair.\n",
        results.pairings.size(), games.games_read, games.games_accepted,
        games.games_read - games.games_accepted, skipped_text(games),
        games.games_without_transitions);
    const auto& crossfit = results.crossfit;
    auto in_sample = [](const PredictionQuality& quality) {
        return fmt::format("MAE {:.4f}, correlation {}", quality.mean_absolute_error,
                           std::isfinite(quality.correlation)
                               ? fmt::format("{:.2f}", quality.correlation)
                               : "n/a");
    };
    text += fmt::format(
        "In-sample (predictions against the actual scores of the games the chains were built "
        "from, {} pairings): stationary {}{}.\n",
        crossfit.in_sample_stationary.points, in_sample(crossfit.in_sample_stationary),
        crossfit.in_sample_model ? "; model-aware " + in_sample(*crossfit.in_sample_model) : "");
    std::size_t points = crossfit.stationary.points;
    text += fmt::format(
        "Cross-fit over {} pairings ({} held-out folds): each fold's score predicted from the "
        "other fold's games.\n",
        crossfit.pairings, points);
    if (points == 0)
        return text + "  No pairing could be split into two folds of openings.\nVerdict: " +
               crossfit.verdict + "\n";
    text += "                    MAE    corr\n";
    auto line = [](const char* name, const PredictionQuality& quality, const char* note) {
        return fmt::format(
            "  {:<14} {:.4f}  {:>6}{}\n", name, quality.mean_absolute_error,
            std::isfinite(quality.correlation) ? fmt::format("{:.2f}", quality.correlation) : "n/a",
            note);
    };
    text += line("stationary", crossfit.stationary, "");
    if (crossfit.model) text += line("model-aware", *crossfit.model, "");
    text += line("baseline", crossfit.baseline, "  (the other fold's actual score)");
    text += fmt::format(
        "  {:<14} {:.4f}          (the MAE that even the true scores would show, from the "
        "held-out standard errors)\n",
        "noise floor", crossfit.noise_floor);
    auto gap = [](const char* name, const ErrorDifference& difference) {
        if (!std::isfinite(difference.standard_error))
            return fmt::format(
                "  {} MAE - baseline MAE: {:+.4f} (too few pairings for an "
                "interval)\n",
                name, difference.mean);
        return fmt::format(
            "  {} MAE - baseline MAE: {:+.4f} (95% interval {:+.4f} to {:+.4f}, per pairing)\n",
            name, difference.mean, difference.mean - kNormal975 * difference.standard_error,
            difference.mean + kNormal975 * difference.standard_error);
    };
    text += gap("stationary", crossfit.stationary_vs_baseline);
    if (crossfit.model_vs_baseline) text += gap("model-aware", *crossfit.model_vs_baseline);
    text += "Verdict: " + crossfit.verdict + "\n";
    return text;
}

Json results_json(const ChainDescription& chains, const MarkovResults& results,
                  const CollectedGames& games, const games::ReadSummary& files, double seconds) {
    const auto& classes = chains.classes;
    Json json;
    Json class_json;
    class_json["scheme"] = classes.name();
    class_json["description"] = classes.description();
    class_json["count"] = classes.size();
    Json labels = Json::array(), lower = Json::array(), upper = Json::array();
    for (int i = 0; i < classes.size(); ++i) {
        labels.push_back(classes.label(i));
        lower.push_back(number(classes.lower(i) / 100));
        upper.push_back(number(classes.upper(i) / 100));
    }
    class_json["labels"] = std::move(labels);
    class_json["lowerPawns"] = std::move(lower);
    class_json["upperPawns"] = std::move(upper);
    json["classes"] = std::move(class_json);
    json["transitions"] = util::name_of(kTransitionModeNames, chains.mode);
    json["perColour"] = chains.per_colour;
    if (results.class_outcomes) {
        Json wdl = Json::array();
        for (const auto& w : results.class_outcomes->wdl) wdl.push_back(wdl_json(w));
        json["model"] = {{"source", results.class_outcomes->model}, {"classWdl", std::move(wdl)}};
    } else {
        json["model"] = {{"source", nullptr}, {"unavailable", results.model_unavailable}};
    }
    Json pairings = Json::array();
    for (const auto& pairing : results.pairings)
        pairings.push_back(pairing_json(pairing, chains.per_colour));
    json["pairings"] = std::move(pairings);

    const auto& crossfit = results.crossfit;
    Json summary;
    summary["pairings"] = results.pairings.size();
    summary["files"] = games::files_json(files);
    Json skipped = Json::object();
    for (const auto& [reason, count] : games.skipped) skipped[reason] = count;
    summary["games"] = {{"read", games.games_read},
                        {"accepted", games.games_accepted},
                        {"skipped", std::move(skipped)},
                        {"withoutEvaluatedMoves", games.games_without_transitions}};
    summary["inSample"] = {
        {"stationary", quality_json(crossfit.in_sample_stationary)},
        {"model",
         crossfit.in_sample_model ? quality_json(*crossfit.in_sample_model) : Json(nullptr)}};
    summary["crossfit"] = {
        {"pairings", crossfit.pairings},
        {"stationary", quality_json(crossfit.stationary)},
        {"model", crossfit.model ? quality_json(*crossfit.model) : Json(nullptr)},
        {"baseline", quality_json(crossfit.baseline)},
        {"noiseFloor", number(crossfit.noise_floor)},
        {"stationaryMinusBaseline", difference_json(crossfit.stationary_vs_baseline)},
        {"modelMinusBaseline",
         crossfit.model_vs_baseline ? difference_json(*crossfit.model_vs_baseline) : Json(nullptr)},
        {"verdict", crossfit.verdict}};
    summary["seconds"] = seconds;
    summary["warnings"] = files.warnings;
    json["summary"] = std::move(summary);
    return json;
}

}  // namespace wdl::markov
