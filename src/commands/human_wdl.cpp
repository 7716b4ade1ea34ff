#include "wdl/commands/human_wdl.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "wdl/counts/human_counts.hpp"
#include "wdl/human/baselines.hpp"
#include "wdl/human/comparison.hpp"
#include "wdl/human/human_data.hpp"
#include "wdl/human/human_fit.hpp"
#include "wdl/human/human_model_file.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/report/reliability_plot.hpp"
#include "wdl/report/score_curves_plot.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/machine_memory.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::commands {

namespace {

// A speed class is fitted only with this many groups holding positions (the jackknife's
// replicates and the folds) and this many positions per parameter of the richest form.
constexpr int kMinGroups = 8;
constexpr double kMinPositionsPerParameter = 200;

struct ClassResult {
    human::HumanData data;
    std::string verdict;  // why the class is not fitted; empty when it is
    human::HumanSelection selection;
    human::HumanFit fit;
    human::HumanUncertainty uncertainty;
    human::HumanComparison comparison;
};

std::string too_few(const human::HumanData& data, const std::vector<human::HumanForm>& forms) {
    int most = 0;
    for (auto form : forms) most = std::max(most, human::parameter_count(form));
    const int groups = data.groups_with_positions();
    if (groups < kMinGroups || data.positions < kMinPositionsPerParameter * most)
        return fmt::format(
            "too few games to fit: {:.0f} positions in {} groups (at least {:.0f} in {} groups)",
            data.positions, groups, kMinPositionsPerParameter * most, kMinGroups);
    return {};
}

ClassResult fit_class(human::HumanData data, const HumanWdlOptions& options,
                      const std::vector<human::HumanForm>& forms, const model::WdlModel& stockfish,
                      util::ProgressLine& progress) {
    ClassResult result;
    result.data = std::move(data);
    result.verdict = too_few(result.data, forms);
    if (!result.verdict.empty()) return result;
    const auto name = counts::speed_class_name(result.data.speed);
    progress.show(fmt::format("{}: choosing the form on {} folds", name, options.folds));
    // A class whose forms all fail is named; the other classes are still fitted.
    try {
        result.selection =
            human::select_human_form(result.data, forms, options.folds, options.threads);
    } catch (const Error& error) {
        result.verdict = std::string("no form could be chosen: ") + error.what();
        progress.clear();
        return result;
    }
    const auto form = result.selection.forms[result.selection.chosen].form;
    result.fit = human::fit_human_model(result.data, form);
    if (!result.fit.converged) {
        result.verdict = "the fit did not converge: " + result.fit.failure;
        return result;
    }
    progress.show(
        fmt::format("{}: jackknife over {} groups", name, result.data.groups_with_positions()));
    result.uncertainty =
        human::jackknife_human(result.data, result.fit, options.threads, options.confidence);
    progress.show(fmt::format("{}: comparison on {} folds", name, options.folds));
    result.comparison = human::compare_held_out(result.data, result.fit.model, options.folds,
                                                stockfish, human::default_rating_bands(),
                                                result.uncertainty.covariance, options.threads);
    progress.clear();
    return result;
}

// The standard normal quantile of two-sided intervals of `confidence`.
double two_sided_z(double confidence) { return stats::normal_quantile((1 + confidence) / 2); }

// (jackknife standard error / Fisher standard error)^2 of parameter i of a converged fit.
double design_effect(const ClassResult& result, std::size_t i) {
    const double fisher = result.fit.fisher_covariance[i][i];
    const double error = result.uncertainty.estimates[i].standard_error;
    return error * error / fisher;
}

void print_class(std::FILE* out, const ClassResult& result, double confidence) {
    const auto& data = result.data;
    fmt::print(out,
               "\n== {}: {:.0f} positions in {} groups, side to move rated {}..{}; {:.0f} "
               "positions of a mate score left out\n",
               counts::speed_class_name(data.speed), data.positions, data.groups_with_positions(),
               data.rating_min, data.rating_max, data.mate_positions);
    if (!result.verdict.empty()) {
        fmt::print(out, "{}: {}\n", counts::speed_class_name(data.speed), result.verdict);
        return;
    }
    const auto& selection = result.selection;
    fmt::print(out, "\nForm by held-out log-loss ({} folds of the groups, {:.0f} positions):\n",
               selection.folds, selection.positions);
    fmt::print(out, "  {:<30} {:>10} {:>12} {:>22}\n", "form", "parameters", "log-loss",
               "minus the best's");
    for (std::size_t f = 0; f < selection.forms.size(); ++f) {
        const auto& score = selection.forms[f];
        if (!score.scored()) {
            fmt::print(out, "  {:<30} {:>10} not scored: {}\n", human::human_form_name(score.form),
                       human::parameter_count(score.form), score.failure);
            continue;
        }
        fmt::print(out, "  {:<30} {:>10} {:>12.6f} {:>+11.6f} +- {:.6f}{}{}\n",
                   human::human_form_name(score.form), human::parameter_count(score.form),
                   score.log_loss, score.versus_best, score.versus_best_error,
                   f == selection.best ? "  best" : "", f == selection.chosen ? "  chosen" : "");
    }
    fmt::print(out,
               "The chosen form: the fewest parameters within one standard error of the best.\n");
    const auto names = human::parameter_names(result.fit.model.form);
    const int percent = int(std::lround(100 * confidence));
    fmt::print(out,
               "\nParameters of {} (eval in pawns; {} % intervals, jackknife over {} groups):\n",
               human::human_form_name(result.fit.model.form), percent, result.uncertainty.groups);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (result.uncertainty.estimates.empty()) {
            fmt::print(out, "  {:<7} {:>10.5f}\n", names[i], result.fit.model.parameters[i]);
            continue;
        }
        const auto& e = result.uncertainty.estimates[i];
        fmt::print(out, "  {:<7} {:>10.5f} +- {:.5f}  [{:.5f}, {:.5f}]  design effect {:.1f}\n",
                   names[i], e.estimate, e.standard_error, e.low, e.high, design_effect(result, i));
    }
    fmt::print(out,
               "Design effect: the jackknife's variance over the Fisher information's, which takes "
               "positions as independent (a game's positions share its result).\n");
    if (!result.uncertainty.no_interval.empty())
        fmt::print(out, "No intervals: {}\n", result.uncertainty.no_interval);
    fmt::print(out, "Optimum: largest gradient {:.2e} per position, curvature {}.\n",
               result.fit.gradient_per_position,
               result.fit.positive_curvature ? "positive definite" : "NOT positive definite");
    fmt::print(out,
               "\nHeld-out comparison ({} folds; per position, +- standard errors over groups):\n"
               "  log-loss of W/D/L, then of the expected score (binary cross-entropy); lichess's "
               "W/D/L takes the band's draw rate\n",
               result.comparison.folds);
    fmt::print(out, "  {:<10} {:>9} {:>7}", "band", "positions", "draws");
    for (const auto& predictor : human::kPredictorNames) fmt::print(out, " {:>21}", predictor.name);
    fmt::print(out, "\n");
    for (const auto& band : result.comparison.bands) {
        fmt::print(out, "  {:<10} {:>9.0f} {:>7.3f}", band.band.label(), band.positions,
                   band.draw_rate);
        if (!band.verdict.empty()) {
            fmt::print(out, " {}\n", band.verdict);
            continue;
        }
        for (const auto& score : band.scores)
            fmt::print(out, " {:>11.4f} +- {:.4f}", score.log_loss, score.log_loss_error);
        fmt::print(out, "\n  {:<10} {:>9} {:>7}", "", "", "score");
        for (const auto& score : band.scores)
            fmt::print(out, " {:>11.4f} +- {:.4f}", score.score_loss, score.score_loss_error);
        fmt::print(out, "\n");
    }
    fmt::print(out,
               "  Reliability bins of at least {:g} positions; a bin's interval holds the observed "
               "score's error over groups and the fitted model's own from its parameters' "
               "covariance:\n",
               human::kMinJudgedBinPositions);
    const double z = two_sided_z(confidence);
    for (const auto& band : result.comparison.bands) {
        if (!band.verdict.empty()) continue;
        const auto fitted = band.bins_outside(human::Predictor::Fitted, z);
        fmt::print(out, "  {:<10} reliability bins outside the {} % interval: {} of {} (",
                   band.band.label(), percent, fitted.outside, fitted.judged);
        for (std::size_t p = 1; p < std::size_t(human::kPredictors); ++p) {
            const auto predictor = human::Predictor(p);
            const auto baseline = band.bins_outside(predictor, z);
            fmt::print(out, "{}{} {} of {}", p > 1 ? ", " : "", human::predictor_name(predictor),
                       baseline.outside, baseline.judged);
        }
        fmt::print(out, ")\n");
    }
    fmt::print(out,
               "  Calibration, all judged bins of a band at once (T = r' C^-1 r, r observed minus "
               "predicted, C their covariance over groups and the fit's; p from Hotelling's "
               "T^2); calibrated at {} % where p >= {:g}:\n",
               percent, 1 - confidence);
    for (const auto& band : result.comparison.bands) {
        if (!band.verdict.empty()) continue;
        fmt::print(out, "  {:<10}", band.band.label());
        for (std::size_t p = 0; p < std::size_t(human::kPredictors); ++p) {
            const auto& test = band.calibration[p];
            const auto name = human::predictor_name(human::Predictor(p));
            if (!test.judged())
                fmt::print(out, "  {} not judged", name);
            else
                fmt::print(out, "  {} p = {:<9.3g}{}", name, test.p_value,
                           test.p_value >= 1 - confidence ? " calibrated" : " NOT calibrated");
            if (p == 0) fmt::print(out, " (T = {:.1f}, {} bins) |", test.statistic, test.bins);
        }
        fmt::print(out, "\n");
    }
    for (const auto& failure : result.comparison.failures)
        fmt::print(out, "  left out: {}\n", failure);
}

nlohmann::ordered_json class_json(const ClassResult& result, double confidence) {
    const auto& data = result.data;
    nlohmann::ordered_json json;
    json["speed"] = counts::speed_class_name(data.speed);
    json["positions"] = data.positions;
    json["matePositions"] = data.mate_positions;
    json["groups"] = data.groups_with_positions();
    json["ratingRange"] = {data.rating_min, data.rating_max};
    if (!result.verdict.empty()) {
        json["verdict"] = result.verdict;
        return json;
    }
    auto& selection = json["selection"];
    selection["folds"] = result.selection.folds;
    selection["positions"] = result.selection.positions;
    selection["best"] = human::human_form_name(result.selection.forms[result.selection.best].form);
    selection["chosen"] =
        human::human_form_name(result.selection.forms[result.selection.chosen].form);
    for (const auto& score : result.selection.forms) {
        nlohmann::ordered_json form;
        form["form"] = human::human_form_name(score.form);
        form["parameters"] = human::parameter_count(score.form);
        if (!score.scored()) {
            form["failure"] = score.failure;
        } else {
            form["logLoss"] = score.log_loss;
            form["logLossError"] = score.log_loss_error;
            form["versusBest"] = score.versus_best;
            form["versusBestError"] = score.versus_best_error;
        }
        selection["forms"].push_back(form);
    }
    auto& fit = json["fit"];
    fit["form"] = human::human_form_name(result.fit.model.form);
    fit["gradientPerPosition"] = result.fit.gradient_per_position;
    fit["positiveCurvature"] = result.fit.positive_curvature;
    const auto names = human::parameter_names(result.fit.model.form);
    for (std::size_t i = 0; i < names.size(); ++i) {
        nlohmann::ordered_json parameter;
        parameter["name"] = names[i];
        parameter["estimate"] = result.fit.model.parameters[i];
        if (!result.uncertainty.estimates.empty()) {
            const auto& e = result.uncertainty.estimates[i];
            parameter["standardError"] = e.standard_error;
            parameter["low"] = e.low;
            parameter["high"] = e.high;
            parameter["fisherStandardError"] = std::sqrt(result.fit.fisher_covariance[i][i]);
            parameter["designEffect"] = design_effect(result, i);
        }
        fit["parameters"].push_back(parameter);
    }
    fit["jackknife"] = {{"groups", result.uncertainty.groups},
                        {"replicates", result.uncertainty.replicates},
                        {"failures", result.uncertainty.failures},
                        {"noInterval", result.uncertainty.no_interval}};
    auto& comparison = json["comparison"];
    comparison["folds"] = result.comparison.folds;
    comparison["failures"] = result.comparison.failures;
    for (const auto& band : result.comparison.bands) {
        nlohmann::ordered_json b;
        b["band"] = band.band.label();
        b["positions"] = band.positions;
        b["groups"] = band.groups;
        b["drawRate"] = band.draw_rate;
        if (!band.verdict.empty()) {
            b["verdict"] = band.verdict;
        } else {
            const double z = two_sided_z(confidence);
            for (std::size_t p = 0; p < std::size_t(human::kPredictors); ++p) {
                const auto& s = band.scores[p];
                nlohmann::ordered_json score = {{"logLoss", s.log_loss},
                                                {"logLossError", s.log_loss_error},
                                                {"scoreLoss", s.score_loss},
                                                {"scoreLossError", s.score_loss_error},
                                                {"versusFitted", s.versus_fitted},
                                                {"versusFittedError", s.versus_fitted_error}};
                for (const auto& bin : band.reliability[p])
                    score["reliability"].push_back({{"low", bin.low},
                                                    {"high", bin.high},
                                                    {"positions", bin.positions},
                                                    {"predicted", bin.predicted},
                                                    {"observed", bin.observed},
                                                    {"observedError", bin.observed_error},
                                                    {"predictedError", bin.predicted_error}});
                const auto outside = band.bins_outside(human::Predictor(p), z);
                score["binsOutside"] = outside.outside;
                score["binsJudged"] = outside.judged;
                const auto& test = band.calibration[p];
                score["calibration"] = {
                    {"bins", test.bins},
                    {"groups", test.groups},
                    {"statistic", test.statistic},
                    {"pValue", test.p_value},
                    {"judged", test.judged()},
                    {"calibrated", test.judged() && test.p_value >= 1 - confidence}};
                b["predictors"][std::string(human::predictor_name(human::Predictor(p)))] = score;
            }
        }
        comparison["bands"].push_back(b);
    }
    return json;
}

human::SpeedClassModel model_of(const ClassResult& result) {
    human::SpeedClassModel entry;
    entry.speed = result.data.speed;
    entry.model = result.fit.model;
    if (!result.uncertainty.estimates.empty()) {
        std::vector<double> errors;
        for (const auto& e : result.uncertainty.estimates) errors.push_back(e.standard_error);
        entry.standard_errors = errors;
        entry.covariance = result.uncertainty.covariance;
    }
    entry.positions = result.data.positions;
    entry.mate_positions = result.data.mate_positions;
    entry.groups = result.data.groups_with_positions();
    entry.rating_low = result.data.rating_min;
    entry.rating_high = result.data.rating_max;
    return entry;
}

// The curves are drawn at this material (a middlegame) for two players of the same rating.
constexpr double kPlottedMaterial = 40;

void write_plots(const ClassResult& result, const std::string& prefix, double confidence) {
    const std::string speed(counts::speed_class_name(result.data.speed));
    report::ScoreCurvesPlot curves;
    curves.title = fmt::format(
        "{}: expected score of the side to move, material {:g}, equal "
        "ratings ({})",
        speed, kPlottedMaterial, human::human_form_name(result.fit.model.form));
    for (int step = -50; step <= 50; ++step) curves.evals.push_back(step / 10.0);
    curves.names.push_back("lichess Win%");
    curves.curves.emplace_back();
    for (double pawns : curves.evals)
        curves.curves.back().push_back(human::lichess_expected_score(100 * pawns));
    for (int rating : {1000, 1350, 1650, 1950, 2300}) {
        curves.names.push_back(fmt::format("fitted, both rated {}", rating));
        curves.curves.emplace_back();
        for (double pawns : curves.evals) {
            const auto wdl = result.fit.model.wdl(
                100 * pawns, {kPlottedMaterial, double(rating), double(rating)});
            curves.curves.back().push_back(wdl[0] + wdl[1] / 2);
        }
    }
    report::write_score_curves_plot(curves, prefix + "-" + speed + "-curves.png");

    const double z = two_sided_z(confidence);
    report::ReliabilityPlot reliability;
    reliability.title = fmt::format(
        "{}: held-out reliability per rating band ({:g} % intervals "
        "of observation and fit)",
        speed, 100 * confidence);
    for (std::size_t p = 0; p < std::size_t(human::kPredictors); ++p) {
        report::ReliabilityPanel panel;
        panel.title = std::string(human::predictor_name(human::Predictor(p)));
        for (const auto& band : result.comparison.bands) {
            if (!band.verdict.empty() || band.band.label() == "all") continue;
            report::ReliabilitySeries series{band.band.label(), {}};
            for (const auto& bin : band.reliability[p])
                if (bin.positions >= human::kMinJudgedBinPositions)
                    series.points.push_back({bin.predicted, bin.observed,
                                             bin.observed - z * bin.combined_error(),
                                             bin.observed + z * bin.combined_error()});
            panel.series.push_back(std::move(series));
        }
        reliability.panels.push_back(std::move(panel));
    }
    report::write_reliability_plot(reliability, prefix + "-" + speed + "-reliability.png");
}

}  // namespace

std::size_t default_human_fit_memory_limit() {
    const std::size_t machine = util::machine_memory_megabytes();
    return machine == 0 ? 4096 : std::max<std::size_t>(machine / 2, 64);
}

void human_wdl(const HumanWdlOptions& options) {
    const auto* published = model::find_published_model(options.stockfish);
    if (!published)
        throw Error(fmt::format("unknown Stockfish model {} (known: {}).", options.stockfish,
                                model::published_model_names()));
    std::vector<human::HumanForm> forms = options.forms;
    if (forms.empty())
        for (const auto& entry : human::kHumanFormNames) forms.push_back(entry.value);
    // Output files are opened before the long work, so that a bad path fails early.
    std::optional<util::AtomicFile> model_file, json_file;
    if (options.output) model_file.emplace(*options.output);
    if (options.json && *options.json != "-") json_file.emplace(*options.json);

    const std::size_t memory_limit =
        options.memory_limit.value_or(default_human_fit_memory_limit());
    auto read = human::read_human_data(options.counts, memory_limit << 20);
    util::ProgressLine progress;
    std::vector<ClassResult> results;
    for (auto& data : read.by_speed)
        results.push_back(fit_class(std::move(data), options, forms, published->model, progress));

    const bool json_only = options.json && *options.json == "-";
    if (!json_only) {
        fmt::print("humanWDL: {} ({} groups); Stockfish's model {}\n", options.counts, read.groups,
                   published->name);
        if (!read.complete())
            fmt::print(
                "Memory limit {} MB: fitted the file's first {} of {} game groups, {:.0f} "
                "positions left out (a random sample of its games; raise --memoryLimit to fit "
                "them all).\n",
                memory_limit, read.groups_kept, read.groups, read.positions_left_out);
        for (const auto& result : results) print_class(stdout, result, options.confidence);
    }
    human::HumanModelFile file;
    nlohmann::ordered_json report;
    report["counts"] = options.counts;
    report["stockfishModel"] = published->name;
    report["memoryLimitMB"] = memory_limit;
    report["groups"] = read.groups;
    report["groupsFitted"] = read.groups_kept;
    report["positionsLeftOut"] = read.positions_left_out;
    for (const auto& result : results) {
        report["classes"].push_back(class_json(result, options.confidence));
        if (result.verdict.empty()) file.classes.push_back(model_of(result));
    }
    if (json_only) fmt::print("{}\n", report.dump(2));
    if (json_file) {
        json_file->write(report.dump(2) + "\n");
        json_file->commit();
    }
    if (file.classes.empty())
        throw Error(fmt::format("{}: no speed class has enough games to fit.", options.counts));
    if (options.plots)
        for (const auto& result : results)
            if (result.verdict.empty()) write_plots(result, *options.plots, options.confidence);
    if (model_file) {
        model_file->write(human::human_model_json(file).dump(2) + "\n");
        model_file->commit();
        if (!json_only) fmt::print("\nThe model: {}\n", *options.output);
    }
}

}  // namespace wdl::commands
