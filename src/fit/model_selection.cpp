#include "wdl/fit/model_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "held_out_scores.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::fit {

using detail::difference_text;
using detail::grouped_mean_of_scored;
using detail::paired_difference;
using detail::scored_groups;
namespace {

using model::CurveForm;
using model::CurveKind;

constexpr FormPair kCubic{};

// The positions' mean |predicted - observed| win rate over the bins of predicted win rate.
double calibration_error(const std::vector<CalibrationBin>& bins) {
    double weighted = 0, positions = 0;
    for (const auto& bin : bins) {
        weighted += bin.positions * std::abs(bin.predicted[0] - bin.observed[0]);
        positions += bin.positions;
    }
    return positions > 0 ? weighted / positions : 0;
}

// A form's fits (all the data, then each fold's training groups) and held-out scores.
struct FormRun {
    FormScore score;
    std::optional<detail::Scores> held_out;
};

FormRun run_form(const GroupedData& data, const std::vector<double>& all_weights,
                 FitOptions options, const FormPair& forms,
                 const std::vector<std::vector<double>>& weights, int folds) {
    FormRun run;
    run.score.forms = forms;
    options.a_form = forms.a;
    options.b_form = forms.b;
    FitResult full;
    try {
        full = fit_model(data.weighted(all_weights), options);
    } catch (const Error& error) {
        run.score.failure = error.what();
        return run;
    }
    if (full.minimization && !full.minimization->converged) {
        run.score.failure = "the fit on all the data: " + full.minimization->message;
        return run;
    }
    run.score.model = full.model;
    run.score.uncertainty = full.uncertainty;
    auto refits = refit_weighted(data, options, full.model, weights, 1);
    detail::Scores scores(data.group_count());
    detail::PredictionCache cache(data.grid().cell_count());
    for (int fold = 0; fold < folds; ++fold) {
        const Refit& refit = refits[std::size_t(fold)];
        if (!refit.minimization.converged) {
            run.score.failure = fmt::format("fold {}: {}", fold + 1, refit.minimization.message);
            return run;
        }
        cache.clear();
        for (std::size_t g = 0; g < data.group_count(); ++g) {
            if (all_weights[g] == 0 || fit::fold_of(g, folds) != fold) continue;
            for (const KeyCount& entry : data.counts(g)) {
                GridCell cell = data.grid().cell_at(entry.cell);
                const auto& prediction = cache.get(entry.cell, [&] {
                    return detail::model_prediction(refit.model, cell.eval, cell.mom);
                });
                counts::PositionKey key = counts::unpack_key(entry.key);
                scores.add(g, prediction, int(key.result), double(entry.count), key.material);
            }
        }
    }
    run.held_out = std::move(scores);
    return run;
}

void summarize(FormScore& score, const detail::Scores& scores) {
    auto log_loss = grouped_mean_of_scored(scores.log_loss, scores.positions);
    auto brier = grouped_mean_of_scored(scores.brier, scores.positions);
    score.log_loss = log_loss.value;
    score.log_loss_error = log_loss.error;
    score.brier = brier.value;
    score.brier_error = brier.error;
    score.calibration_error = calibration_error(scores.calibration.by_predicted_win());
    std::tie(score.group_log_loss, score.group_positions) =
        scored_groups(scores.log_loss, scores.positions);
}

}  // namespace

std::string form_pair_name(const FormPair& forms) {
    return model::curve_form_name(forms.a) + "/" + model::curve_form_name(forms.b);
}

std::optional<FormPair> form_pair_from_name(std::string_view name) {
    auto slash = name.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    auto a = model::curve_form_from_name(name.substr(0, slash));
    auto b = model::curve_form_from_name(name.substr(slash + 1));
    if (!a || !b) return std::nullopt;
    return FormPair{*a, *b};
}

std::vector<FormPair> default_selection_forms() {
    std::vector<FormPair> forms;
    for (int a = model::kMinCurveDegree; a <= model::kMaxCurveDegree; ++a)
        for (int b = model::kMinCurveDegree; b <= model::kMaxCurveDegree; ++b)
            forms.push_back({{CurveKind::Polynomial, a}, {CurveKind::Polynomial, b}});
    const CurveForm cubic{}, rational1{CurveKind::Rational, 1}, rational2{CurveKind::Rational, 2};
    for (CurveForm rational : {rational1, rational2}) {
        forms.push_back({rational, cubic});
        forms.push_back({cubic, rational});
        forms.push_back({rational, rational});
    }
    forms.push_back({rational1, rational2});
    forms.push_back({rational2, rational1});
    return forms;
}

ModelSelection select_model(const GroupedData& data, const FitOptions& options,
                            const std::vector<FormPair>& forms, const counts::Grouping& grouping,
                            const CrossValidationOptions& validation,
                            const std::vector<char>& included) {
    std::vector<double> all_weights(data.group_count(), 1.0);
    for (std::size_t g = 0; g < included.size() && g < all_weights.size(); ++g)
        all_weights[g] = included[g] ? 1.0 : 0.0;
    const std::size_t groups = std::size_t(std::count(all_weights.begin(), all_weights.end(), 1.0));
    if (groups < 2) {
        throw Error(fmt::format(
            "model selection needs at least 2 groups with retained positions; the data have {}.",
            groups));
    }
    ModelSelection selection;
    selection.folds =
        int(std::min<std::size_t>(std::size_t(std::max(validation.folds, 2)), groups));
    selection.groups = int(groups);
    selection.grouping = grouping;
    std::vector<std::vector<double>> weights(std::size_t(selection.folds), all_weights);
    for (std::size_t g = 0; g < data.group_count(); ++g)
        weights[std::size_t(fit::fold_of(g, selection.folds))][g] = 0;

    std::vector<FormRun> runs(forms.size());
    util::parallel_for(forms.size(), validation.threads, [&](std::size_t, std::size_t i) {
        runs[i] = run_form(data, all_weights, options, forms[i], weights, selection.folds);
    });

    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!runs[i].held_out) continue;
        summarize(runs[i].score, *runs[i].held_out);
        if (!best || runs[i].score.log_loss < runs[*best].score.log_loss) best = i;
    }
    if (!best) throw Error("model selection failed: no form could be fitted on every fold.");
    selection.best = *best;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i].held_out && forms[i] == kCubic) selection.cubic = i;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        FormScore& score = runs[i].score;
        if (!runs[i].held_out) continue;
        auto to_best = paired_difference(*runs[i].held_out, *runs[*best].held_out);
        score.versus_best = to_best.value;
        score.versus_best_error = to_best.error;
        if (selection.cubic) {
            auto to_cubic = paired_difference(*runs[i].held_out, *runs[*selection.cubic].held_out);
            score.versus_cubic = to_cubic.value;
            score.versus_cubic_error = to_cubic.error;
        }
    }
    for (double positions : runs[*best].score.group_positions) selection.positions += positions;
    selection.chosen = *best;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const FormScore& score = runs[i].score;
        const FormScore& chosen = runs[selection.chosen].score;
        if (!score.scored() || score.versus_best > score.versus_best_error) continue;
        int parameters = score.forms.parameter_count();
        int chosen_parameters = chosen.forms.parameter_count();
        if (parameters < chosen_parameters ||
            (parameters == chosen_parameters && score.log_loss < chosen.log_loss))
            selection.chosen = i;
    }
    for (auto& run : runs) selection.forms.push_back(std::move(run.score));
    return selection;
}

std::string model_selection_report(const ModelSelection& selection) {
    std::string text = fmt::format(
        "Model selection: {} forms of p_a/p_b, each fitted on all but one of {} folds of {} {} "
        "groups and scored on the held-out fold ({:.0f} positions). Differences of held-out "
        "log-loss are paired over the same positions; their standard errors take the groups as "
        "independent.\n",
        selection.forms.size(), selection.folds, selection.groups,
        counts::group_by_name(selection.grouping.by), selection.positions);
    std::vector<std::size_t> order(selection.forms.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const auto &a = selection.forms[x], &b = selection.forms[y];
        if (a.scored() != b.scored()) return a.scored();
        return a.scored() && a.log_loss < b.log_loss;
    });
    text += fmt::format("{:<22}{:>7}{:>11}{:>26}{:>26}{:>9}{:>8}\n", "form", "params", "log-loss",
                        "minus best", "minus poly3/poly3", "Brier", "calib.");
    for (std::size_t i : order) {
        const FormScore& score = selection.forms[i];
        std::string name = form_pair_name(score.forms) + (i == selection.chosen ? " *" : "");
        if (!score.scored()) {
            text += fmt::format("{:<22}{:>7}  not scored: {}\n", name,
                                score.forms.parameter_count(), score.failure);
            continue;
        }
        text += fmt::format("{:<22}{:>7}{:>11.6f}{:>26}{:>26}{:>9.5f}{:>8.4f}\n", name,
                            score.forms.parameter_count(), score.log_loss,
                            difference_text(score.versus_best, score.versus_best_error),
                            score.versus_cubic
                                ? difference_text(*score.versus_cubic, *score.versus_cubic_error)
                                : std::string("-"),
                            score.brier, score.calibration_error);
    }
    const FormScore& best = selection.forms[selection.best];
    const FormScore& chosen = selection.forms[selection.chosen];
    text += fmt::format(
        "Best: {} (held-out log-loss {:.6f}). Chosen (*): {}, the form with the fewest "
        "parameters whose held-out log-loss exceeds the best's by at most one standard error.\n",
        form_pair_name(best.forms), best.log_loss, form_pair_name(chosen.forms));
    if (selection.cubic) {
        const FormScore& cubic = selection.forms[*selection.cubic];
        double z = cubic.versus_best_error > 0 ? cubic.versus_best / cubic.versus_best_error : 0;
        text += fmt::format(
            "Stockfish's form poly3/poly3 against the best: {} ({:.1f} standard errors): {}.\n",
            difference_text(cubic.versus_best, cubic.versus_best_error), z,
            z < 2 ? "within the noise (less than two standard errors)"
                  : "worse beyond the noise (two standard errors or more)");
    }
    return text;
}

nlohmann::ordered_json model_selection_json(const ModelSelection& selection) {
    nlohmann::ordered_json json;
    json["folds"] = selection.folds;
    json["groupBy"] = counts::group_by_name(selection.grouping.by);
    json["groups"] = selection.groups;
    json["positions"] = selection.positions;
    json["rule"] =
        "the fewest parameters among the forms whose held-out log-loss exceeds the best's by "
        "at most one standard error of the paired difference";
    json["best"] = form_pair_name(selection.forms[selection.best].forms);
    json["chosen"] = form_pair_name(selection.forms[selection.chosen].forms);
    auto& forms = json["forms"] = nlohmann::ordered_json::array();
    for (const FormScore& score : selection.forms) {
        nlohmann::ordered_json entry;
        entry["form"] = form_pair_name(score.forms);
        entry["parameters"] = score.forms.parameter_count();
        if (!score.scored()) {
            entry["failure"] = score.failure;
            forms.push_back(entry);
            continue;
        }
        entry["as"] = score.model.as;
        entry["bs"] = score.model.bs;
        entry["NormalizeToPawnValue"] = score.model.a_at_target();
        entry["logLoss"] = score.log_loss;
        entry["logLossError"] = score.log_loss_error;
        entry["minusBest"] = score.versus_best;
        entry["minusBestError"] = score.versus_best_error;
        if (score.versus_cubic) {
            entry["minusCubic"] = *score.versus_cubic;
            entry["minusCubicError"] = *score.versus_cubic_error;
        }
        entry["brier"] = score.brier;
        entry["brierError"] = score.brier_error;
        entry["calibrationError"] = score.calibration_error;
        forms.push_back(entry);
    }
    return json;
}

std::vector<LearningPoint> learning_curve(const GroupedData& data, const FitOptions& options,
                                          const std::vector<FormPair>& forms,
                                          const counts::Grouping& grouping,
                                          const CrossValidationOptions& validation) {
    std::vector<LearningPoint> curve;
    const std::size_t groups = data.group_count();
    for (double fraction : kLearningFractions) {
        std::size_t taken = std::size_t(std::ceil(fraction * double(groups)));
        if (taken < 2 || (!curve.empty() && taken == std::size_t(curve.back().selection.groups)))
            continue;
        std::vector<char> included(groups, 0);
        std::fill(included.begin(), included.begin() + std::ptrdiff_t(taken), 1);
        curve.push_back(
            {fraction, select_model(data, options, forms, grouping, validation, included)});
    }
    return curve;
}

std::string learning_curve_report(const std::vector<LearningPoint>& curve) {
    std::string text =
        "Learning curve: the selection on the first 1/8, 1/4, 1/2 and all of the groups (a "
        "random subsample each); \"best - cubic\" is the best form's held-out log-loss minus "
        "poly3/poly3's, paired (negative: the best form predicts better).\n";
    text += fmt::format("{:>9}{:>8}{:>12}  {:<22}{:<22}{:>26}\n", "fraction", "groups", "positions",
                        "best", "chosen", "best - cubic");
    for (const auto& point : curve) {
        const auto& selection = point.selection;
        const FormScore& best = selection.forms[selection.best];
        std::string gain = "cubic not scored";
        if (selection.cubic) {
            const FormScore& cubic = selection.forms[*selection.cubic];
            gain = difference_text(-cubic.versus_best, cubic.versus_best_error);
        }
        text += fmt::format("{:>9.3f}{:>8}{:>12.0f}  {:<22}{:<22}{:>26}\n", point.fraction,
                            selection.groups, selection.positions, form_pair_name(best.forms),
                            form_pair_name(selection.forms[selection.chosen].forms), gain);
    }
    return text;
}

nlohmann::ordered_json learning_curve_json(const std::vector<LearningPoint>& curve) {
    auto json = nlohmann::ordered_json::array();
    for (const auto& point : curve) {
        nlohmann::ordered_json entry;
        entry["fraction"] = point.fraction;
        entry["selection"] = model_selection_json(point.selection);
        json.push_back(entry);
    }
    return json;
}

}  // namespace wdl::fit
