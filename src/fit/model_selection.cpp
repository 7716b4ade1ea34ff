#include "wdl/fit/model_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <tuple>

#include "held_out_scores.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::fit {
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
            if (all_weights[g] == 0 || detail::fold_of(g, folds) != fold) continue;
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

// The per-group sums of the groups that were scored (a subsample leaves the others empty),
// so that the standard errors count only those.
std::pair<std::vector<double>, std::vector<double>> scored_groups(
    const std::vector<double>& sums, const std::vector<double>& positions) {
    std::vector<double> kept_sums, kept_positions;
    for (std::size_t g = 0; g < sums.size(); ++g) {
        if (positions[g] == 0) continue;
        kept_sums.push_back(sums[g]);
        kept_positions.push_back(positions[g]);
    }
    return {kept_sums, kept_positions};
}

stats::MeanEstimate grouped_mean_of_scored(const std::vector<double>& sums,
                                           const std::vector<double>& positions) {
    auto [kept_sums, kept_positions] = scored_groups(sums, positions);
    return stats::grouped_mean(kept_sums, kept_positions);
}

stats::MeanEstimate paired_difference(const detail::Scores& scores, const detail::Scores& other) {
    std::vector<double> differences(scores.log_loss.size());
    for (std::size_t g = 0; g < differences.size(); ++g)
        differences[g] = scores.log_loss[g] - other.log_loss[g];
    return grouped_mean_of_scored(differences, scores.positions);
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

std::string difference_text(double value, double error) {
    return fmt::format("{:+.6f} +- {:.6f}", value, error);
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
        weights[std::size_t(detail::fold_of(g, selection.folds))][g] = 0;

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

namespace {

std::vector<MomData> from_mom(std::vector<MomData> moms, int cut) {
    std::erase_if(moms, [cut](const MomData& mom) { return mom.mom < cut; });
    return moms;
}

CutRegion cut_region(const detail::Scores& clamped, const detail::Scores& extended) {
    CutRegion region;
    for (double positions : clamped.positions) region.positions += positions;
    if (region.positions == 0) return region;
    region.clamped_log_loss = grouped_mean_of_scored(clamped.log_loss, clamped.positions).value;
    region.extended_log_loss = grouped_mean_of_scored(extended.log_loss, extended.positions).value;
    auto difference = paired_difference(extended, clamped);
    region.difference = difference.value;
    region.difference_error = difference.error;
    return region;
}

}  // namespace

MomCutComparison compare_mom_cut(const GroupedData& data, const FitOptions& options, int cut,
                                 const counts::Grouping& grouping,
                                 const CrossValidationOptions& validation) {
    const std::size_t groups = data.group_count();
    const auto& total = data.total();
    if (total.empty() || total.front().mom >= cut) {
        throw Error(
            fmt::format("the cut at {} needs data below it: lower the --materialMin (or "
                        "--moveMin) below {}.",
                        cut, cut));
    }
    if (groups < 2)
        throw Error("the cut's comparison needs at least 2 groups with retained positions.");
    MomCutComparison comparison;
    comparison.cut = cut;
    comparison.lowest_mom = total.front().mom;
    comparison.folds =
        int(std::min<std::size_t>(std::size_t(std::max(validation.folds, 2)), groups));
    comparison.groups = int(groups);
    comparison.grouping = grouping;
    auto clamped = fit_model(from_mom(total, cut), options);
    auto extended = fit_model(total, options);
    for (const auto* fit : {&clamped, &extended})
        if (fit->minimization && !fit->minimization->converged)
            throw Error("a fit of the cut's comparison did not converge: " +
                        fit->minimization->message);

    std::vector<Refit> clamped_refits(std::size_t(comparison.folds)),
        extended_refits(std::size_t(comparison.folds));
    util::parallel_for(
        std::size_t(comparison.folds), validation.threads, [&](std::size_t, std::size_t fold) {
            std::vector<double> weights(groups, 1.0);
            for (std::size_t g = 0; g < groups; ++g)
                if (detail::fold_of(g, comparison.folds) == int(fold)) weights[g] = 0;
            auto training = data.weighted(weights);
            clamped_refits[fold] = refit_model(from_mom(training, cut), options, clamped.model);
            extended_refits[fold] = refit_model(training, options, extended.model);
        });
    detail::Scores below_clamped(groups), below_extended(groups), above_clamped(groups),
        above_extended(groups);
    for (int fold = 0; fold < comparison.folds; ++fold) {
        const auto& c = clamped_refits[std::size_t(fold)];
        const auto& e = extended_refits[std::size_t(fold)];
        for (const auto* refit : {&c, &e})
            if (!refit->minimization.converged)
                throw Error(fmt::format("fold {} of the cut's comparison: {}", fold + 1,
                                        refit->minimization.message));
        for (std::size_t g = 0; g < groups; ++g) {
            if (detail::fold_of(g, comparison.folds) != fold) continue;
            for (const KeyCount& entry : data.counts(g)) {
                GridCell cell = data.grid().cell_at(entry.cell);
                counts::PositionKey key = counts::unpack_key(entry.key);
                bool below = cell.mom < cut;
                int outcome = int(key.result);
                double count = double(entry.count);
                (below ? below_clamped : above_clamped)
                    .add(g, detail::model_prediction(c.model, cell.eval, cell.mom), outcome, count,
                         key.material);
                (below ? below_extended : above_extended)
                    .add(g, detail::model_prediction(e.model, cell.eval, cell.mom), outcome, count,
                         key.material);
            }
        }
    }
    comparison.below = cut_region(below_clamped, below_extended);
    comparison.above = cut_region(above_clamped, above_extended);
    return comparison;
}

std::string mom_cut_report(const MomCutComparison& comparison, std::string_view mom_name) {
    std::string text = fmt::format(
        "The cut at {0} {1}: the model fitted on {1} {2} and up, clamped below {2} as Stockfish "
        "evaluates it, against the same form fitted down to {1} {3}; held out over {4} folds of "
        "{5} {6} groups.\n",
        comparison.cut, mom_name, comparison.cut, comparison.lowest_mom, comparison.folds,
        comparison.groups, counts::group_by_name(comparison.grouping.by));
    text += fmt::format("{:<14}{:>12}{:>14}{:>14}{:>28}\n", "positions", "held out", "clamped",
                        "fitted down", "fitted down - clamped");
    for (auto [label, region] :
         {std::pair{fmt::format("below {}", comparison.cut), comparison.below},
          std::pair{fmt::format("from {}", comparison.cut), comparison.above}})
        text += fmt::format("{:<14}{:>12.0f}{:>14.6f}{:>14.6f}{:>28}\n", label, region.positions,
                            region.clamped_log_loss, region.extended_log_loss,
                            difference_text(region.difference, region.difference_error));
    return text;
}

nlohmann::ordered_json mom_cut_json(const MomCutComparison& comparison) {
    auto region_json = [](const CutRegion& region) {
        return nlohmann::ordered_json{{"positions", region.positions},
                                      {"clampedLogLoss", region.clamped_log_loss},
                                      {"fittedDownLogLoss", region.extended_log_loss},
                                      {"difference", region.difference},
                                      {"differenceError", region.difference_error}};
    };
    return {{"cut", comparison.cut},
            {"lowestMom", comparison.lowest_mom},
            {"folds", comparison.folds},
            {"groups", comparison.groups},
            {"below", region_json(comparison.below)},
            {"from", region_json(comparison.above)}};
}

namespace {

// The models of one kind for every source, fitted on (training) data of every source.
using SourceFit = std::function<std::vector<model::WdlModel>(
    const std::vector<std::vector<MomData>>& data, const std::vector<model::WdlModel>& start)>;

void check_converged(const std::optional<Minimization>& minimization, const std::string& what) {
    if (minimization && !minimization->converged)
        throw Error(what + " did not converge: " + minimization->message);
}

// The number of groups over every source (a group may hold games of several sources).
int groups_of_sources(const std::vector<const GroupedData*>& sources) {
    int groups = 0;
    for (const GroupedData* data : sources)
        for (std::size_t g = 0; g < data->group_count(); ++g)
            groups = std::max(groups, data->file_group(g) + 1);
    return groups;
}

using NamedSourceFits = std::vector<std::pair<std::string, SourceFit>>;
// [fold][kind][source]
using ModelsByFold = std::vector<std::vector<std::vector<model::WdlModel>>>;

// refits[fold][kind]: each kind's models fitted without the fold's groups, from the full fits.
ModelsByFold refits_by_fold(const std::vector<const GroupedData*>& sources,
                            const NamedSourceFits& kinds,
                            const std::vector<std::vector<model::WdlModel>>& full, int folds,
                            int threads) {
    ModelsByFold refits(static_cast<std::size_t>(folds));
    util::parallel_for(std::size_t(folds), threads, [&](std::size_t, std::size_t fold) {
        std::vector<std::vector<MomData>> training;
        for (const GroupedData* data : sources) {
            std::vector<double> weights(data->group_count(), 1.0);
            for (std::size_t g = 0; g < weights.size(); ++g)
                if (detail::fold_of(std::size_t(data->file_group(g)), folds) == int(fold))
                    weights[g] = 0;
            training.push_back(data->weighted(weights));
        }
        for (std::size_t k = 0; k < kinds.size(); ++k)
            refits[fold].push_back(kinds[k].second(training, full[k]));
    });
    return refits;
}

// Every source's positions scored by each kind's models fitted without their group's fold;
// adds each source's positions to source_positions.
std::vector<detail::Scores> held_out_scores(const std::vector<const GroupedData*>& sources,
                                            const ModelsByFold& refits, std::size_t kinds,
                                            int groups, int folds,
                                            std::vector<double>& source_positions) {
    std::vector<detail::Scores> scores(kinds, detail::Scores(std::size_t(groups)));
    source_positions.assign(sources.size(), 0);
    for (std::size_t s = 0; s < sources.size(); ++s) {
        const GroupedData& data = *sources[s];
        for (std::size_t g = 0; g < data.group_count(); ++g) {
            const std::size_t group = std::size_t(data.file_group(g));
            const auto& models = refits[std::size_t(detail::fold_of(group, folds))];
            for (const KeyCount& entry : data.counts(g)) {
                GridCell cell = data.grid().cell_at(entry.cell);
                counts::PositionKey key = counts::unpack_key(entry.key);
                for (std::size_t k = 0; k < kinds; ++k) {
                    scores[k].add(group,
                                  detail::model_prediction(models[k][s], cell.eval, cell.mom),
                                  int(key.result), double(entry.count), key.material);
                }
                source_positions[s] += double(entry.count);
            }
        }
    }
    return scores;
}

}  // namespace

SourceComparison compare_sources(const std::vector<const GroupedData*>& sources,
                                 const std::vector<std::string>& names, const FitOptions& options,
                                 const counts::Grouping& grouping,
                                 const CrossValidationOptions& validation) {
    if (sources.size() < 2) throw Error("comparing sources needs at least 2 count files.");
    auto objective = method_objective(options.method);
    if (!objective)
        throw Error("comparing sources needs optimizeProbability or optimizeScore fits.");
    int groups = groups_of_sources(sources);
    if (groups < 2) throw Error("comparing sources needs at least 2 groups with positions.");
    SourceComparison comparison;
    comparison.sources = names;
    comparison.folds = std::min(std::max(validation.folds, 2), groups);
    comparison.groups = groups;
    comparison.grouping = grouping;
    const std::size_t count = sources.size();

    // The three kinds, each a way to fit a model per source from every source's data.
    SourceFit pooled = [&](const auto& data, const auto& start) {
        auto moms = pooled_mom_data(data);
        std::vector<model::WdlModel> models;
        if (start.empty()) {
            auto fit = fit_model(moms, options);
            check_converged(fit.minimization, "the pooled fit");
            models.assign(count, fit.model);
        } else {
            auto refit = refit_model(moms, options, start.front());
            check_converged(refit.minimization, "a pooled refit");
            models.assign(count, refit.model);
        }
        return models;
    };
    SourceFit separate = [&](const auto& data, const auto& start) {
        std::vector<model::WdlModel> models;
        for (std::size_t s = 0; s < count; ++s) {
            if (start.empty()) {
                auto fit = fit_model(data[s], options);
                check_converged(fit.minimization, "the fit of " + names[s]);
                models.push_back(fit.model);
            } else {
                auto refit = refit_model(data[s], options, start[s]);
                check_converged(refit.minimization, "a refit of " + names[s]);
                models.push_back(refit.model);
            }
        }
        return models;
    };
    std::vector<std::vector<MomData>> totals;
    for (const GroupedData* data : sources) totals.push_back(data->total());
    auto pooled_models = pooled(totals, {});
    SourceFit shared = [&](const auto& data, const auto& start) {
        auto fit =
            fit_shared_a(*objective, data, start.empty() ? pooled_models : start, !start.empty());
        check_converged(fit.minimization, "the fit with b per source");
        return fit.models;
    };
    NamedSourceFits kinds{
        {"pooled", pooled}, {"b per source", shared}, {"model per source", separate}};

    std::vector<std::vector<model::WdlModel>> full;
    for (const auto& [name, fit] : kinds)
        full.push_back(name == "pooled" ? pooled_models : fit(totals, {}));
    auto refits = refits_by_fold(sources, kinds, full, comparison.folds, validation.threads);
    auto scores = held_out_scores(sources, refits, kinds.size(), groups, comparison.folds,
                                  comparison.source_positions);
    for (double positions : comparison.source_positions) comparison.positions += positions;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        SourceModels kind;
        kind.name = kinds[k].first;
        kind.models = full[k];
        auto log_loss = grouped_mean_of_scored(scores[k].log_loss, scores[k].positions);
        kind.log_loss = log_loss.value;
        kind.log_loss_error = log_loss.error;
        auto minus_pooled = paired_difference(scores[k], scores[0]);
        kind.minus_pooled = minus_pooled.value;
        kind.minus_pooled_error = minus_pooled.error;
        comparison.kinds.push_back(std::move(kind));
    }
    return comparison;
}

std::string source_comparison_report(const SourceComparison& comparison) {
    std::string sources;
    for (std::size_t s = 0; s < comparison.sources.size(); ++s)
        sources += fmt::format("{}{} ({:.0f} positions)", s ? ", " : "", comparison.sources[s],
                               comparison.source_positions[s]);
    std::string text = fmt::format(
        "Sources compared: {}; held out over {} folds of {} {} groups.\n", sources,
        comparison.folds, comparison.groups, counts::group_by_name(comparison.grouping.by));
    text += fmt::format("{:<18}{:>12}{:>26}  {}\n", "models", "log-loss", "minus pooled",
                        "NormalizeToPawnValue / spread per source");
    for (const auto& kind : comparison.kinds) {
        std::string constants;
        for (std::size_t s = 0; s < kind.models.size(); ++s)
            constants += fmt::format("{}{} / {}", s ? ", " : "", kind.models[s].pawn_value(),
                                     kind.models[s].spread());
        text += fmt::format("{:<18}{:>12.6f}{:>26}  {}\n", kind.name, kind.log_loss,
                            difference_text(kind.minus_pooled, kind.minus_pooled_error), constants);
    }
    const auto& by_b = comparison.kinds[1];
    double z = by_b.minus_pooled_error > 0 ? by_b.minus_pooled / by_b.minus_pooled_error : 0;
    text += fmt::format(
        "A b(m) per source against one model for all: {} ({:.1f} standard "
        "errors): {}.\n",
        difference_text(by_b.minus_pooled, by_b.minus_pooled_error), z,
        z <= -2 ? "the sources differ beyond the noise" : "no difference beyond the noise");
    return text;
}

nlohmann::ordered_json source_comparison_json(const SourceComparison& comparison) {
    nlohmann::ordered_json json;
    json["sources"] = comparison.sources;
    json["sourcePositions"] = comparison.source_positions;
    json["folds"] = comparison.folds;
    json["groups"] = comparison.groups;
    auto& kinds = json["models"] = nlohmann::ordered_json::array();
    for (const auto& kind : comparison.kinds) {
        nlohmann::ordered_json entry;
        entry["name"] = kind.name;
        entry["logLoss"] = kind.log_loss;
        entry["logLossError"] = kind.log_loss_error;
        entry["minusPooled"] = kind.minus_pooled;
        entry["minusPooledError"] = kind.minus_pooled_error;
        auto& models = entry["perSource"] = nlohmann::ordered_json::array();
        for (const auto& model : kind.models)
            models.push_back({{"as", model.as},
                              {"bs", model.bs},
                              {"NormalizeToPawnValue", model.pawn_value()},
                              {"spread", model.spread()}});
        kinds.push_back(entry);
    }
    return json;
}

}  // namespace wdl::fit
