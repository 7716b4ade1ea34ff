#include "wdl/commands/score_wdl.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "comparison_plot_of.hpp"
#include "score_wdl_plots.hpp"
#include "score_wdl_report.hpp"
#include "wdl/compare/model_comparison.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/fit/fit_report.hpp"
#include "wdl/fit/fit_verdict.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/mom_cut.hpp"
#include "wdl/fit/source_comparison.hpp"
#include "wdl/fit/trainer_constants.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/report/comparison_plot.hpp"
#include "wdl/report/show_plot.hpp"
#include "wdl/report/summary_plot.hpp"
#include "wdl/scan/scan_summary.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::commands {
namespace {

// Prints to stdout and keeps what it printed, for --report to quote.
class Printer {
  public:
    template <class... Args>
    void operator()(fmt::format_string<Args...> format, Args&&... args) {
        std::string text = fmt::format(format, std::forward<Args>(args)...);
        std::fputs(text.c_str(), stdout);
        printed_ += text;
    }
    const std::string& printed() const { return printed_; }

  private:
    std::string printed_;
};

// The options as the fit used them, for the "options" object of --json.
nlohmann::ordered_json options_json(const ScoreWdlOptions& options,
                                    const model::Normalization& normalization) {
    nlohmann::ordered_json json;
    std::vector<std::string> files;
    for (const auto& file : options.files) files.push_back(file.string());
    json["filename"] = files;
    if (options.normalize_to_pawn_value) {
        json["NormalizeToPawnValue"] = *options.normalize_to_pawn_value;
    } else {
        // JSON as given, or the name of a model (sf18, a file, a Stockfish source) as a string.
        std::string data =
            options.normalize_data.value_or(std::string(model::kDefaultNormalizeData));
        auto parsed = nlohmann::ordered_json::parse(data, nullptr, false);
        json["NormalizeData"] = parsed.is_discarded() ? nlohmann::ordered_json(data) : parsed;
    }
    const auto& filter = options.filter;
    json["moveMin"] = filter.move_min;
    json["moveMax"] = filter.move_max;
    json["materialMin"] = filter.material_min;
    json["materialMax"] = filter.material_max;
    json["evalMax"] = filter.eval_max_cp;
    json["momType"] = model::mom_type_name(filter.mom_type);
    json["momTarget"] = options.mom_target;
    json["modelFitting"] = fit::method_name(options.method);
    json["winMin"] = options.win_min;
    json["inputPawnValue"] = normalization.pawn_value();
    if (options.resample == ResampleChoice::Bootstrap)
        json["resamples"] = options.bootstrap_resamples;
    if (options.cross_validate) json["folds"] = options.folds;
    return json;
}

// Python's json.load silently keeps the last count of a key given twice; we say so.

void write_plots(Printer& print, const ScoreWdlOptions& options, const fit::CountGrid& grid,
                 const std::vector<fit::MomData>& moms, const std::optional<fit::FitResult>& fit,
                 const model::Normalization& normalization) {
    print("Preparing plots.\n");
    std::fflush(stdout);
    report::write_summary_plot(
        summary_plot_of(grid, moms, fit, normalization, options.mom_target, options.plot_range),
        options.png_name);
    print("Saved graphics to {}.\n", options.png_name.string());
    if (options.plot == PlotMode::SaveAndShow && !report::show_plot(options.png_name)) {
        print(
            "Cannot show {}: no display ($DISPLAY and $WAYLAND_DISPLAY are unset) or no "
            "image viewer (xdg-open) could open it; the plot is saved.\n",
            options.png_name.string());
    }
}

// The groups shared by every input file, or why there are none.
struct InputGrouping {
    std::optional<counts::Grouping> grouping;
    std::string problem;
};

InputGrouping input_grouping(const std::vector<std::filesystem::path>& files,
                             const std::vector<std::optional<counts::Grouping>>& groupings) {
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (!groupings[i]) {
            return {std::nullopt,
                    fmt::format("{} has no groups (scan with scoreWDLstat --groups K)",
                                files[i].string())};
        }
        if (*groupings[i] != *groupings[0]) {
            return {std::nullopt, fmt::format("{} and {} have different groups", files[0].string(),
                                              files[i].string())};
        }
    }
    return {groupings.front(), ""};
}

// read_count_file into the grid; an error of the grid's (counts beyond 63 bits) names the file
// as the reader's own errors do.
counts::CountFileReport read_naming_file(const std::filesystem::path& file, fit::CountGrid& grid) {
    try {
        return counts::read_count_file(file, grid);
    } catch (const Error& error) {
        if (std::string_view(error.what()).find(file.string()) != std::string_view::npos) throw;
        throw Error(file.string() + ": " + error.what());
    }
}

// Reads every input file into the grid, and with `file_grids` (--compareFiles) each file also
// into a grid of its own, from the one reading; returns the groups the files share.
InputGrouping read_inputs(Printer& print, const std::vector<std::filesystem::path>& files,
                          fit::CountGrid& grid,
                          std::vector<std::unique_ptr<fit::CountGrid>>* file_grids = nullptr) {
    std::vector<std::optional<counts::Grouping>> groupings;
    for (const auto& file : files) {
        print("Reading eval stats from {}.\n", file.string());
        std::fflush(stdout);
        counts::CountFileReport report;
        if (file_grids) {
            auto own = grid.blank_grid();
            report = read_naming_file(file, *own);
            grid.merge(*own);
            file_grids->push_back(std::move(own));
        } else {
            report = read_naming_file(file, grid);
        }
        for (const auto& line : counts::repeated_key_warnings(file, report.repeated_keys))
            print("{}\n", line);
        groupings.push_back(report.grouping);
    }
    return input_grouping(files, groupings);
}

// Error bars, cross-validation or model selection asked for explicitly need groups and a fit.
void check_validation_inputs(const ScoreWdlOptions& options, const InputGrouping& grouping) {
    bool asked =
        options.cross_validate || options.select_model || options.mom_cut ||
        options.compare_files ||
        (options.resample != ResampleChoice::Auto && options.resample != ResampleChoice::None);
    if (asked && !grouping.grouping) {
        throw Error(
            "--resample, --crossValidate, --selectModel, --momCut and --compareFiles need "
            "grouped counts: " +
            grouping.problem + ".");
    }
    if (asked && options.method == fit::Method::None) {
        throw Error(
            "--resample, --crossValidate, --selectModel, --momCut and --compareFiles need a fit "
            "(--modelFitting is None).");
    }
}

std::optional<fit::ResampleMethod> resample_method(ResampleChoice choice) {
    if (choice == ResampleChoice::Auto || choice == ResampleChoice::Jackknife)
        return fit::ResampleMethod::Jackknife;
    if (choice == ResampleChoice::Bootstrap) return fit::ResampleMethod::Bootstrap;
    return std::nullopt;
}

fit::FitOptions fit_options_of(const ScoreWdlOptions& options,
                               const model::Normalization& normalization) {
    return {options.method,  options.filter.mom_type,    options.mom_target,
            options.win_min, normalization.pawn_value(), options.a_form,
            options.b_form};
}

// The summary plot's name with `suffix` before its extension.
std::filesystem::path png_beside_summary(const ScoreWdlOptions& options,
                                         const std::string& suffix) {
    std::filesystem::path png = options.png_name;
    return png.replace_filename(png.stem().string() + suffix + png.extension().string());
}

// The forms of the best held-out log-loss (at most four: always the chosen one and the cubic)
// side by side, their a(m) with its band of +-1 standard error (Fisher).
void write_selection_plot(const fit::ModelSelection& selection, const std::filesystem::path& png) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < selection.forms.size(); ++i)
        if (selection.forms[i].scored()) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return selection.forms[x].log_loss < selection.forms[y].log_loss;
    });
    std::vector<std::size_t> shown{selection.chosen};
    if (selection.cubic && *selection.cubic != selection.chosen) shown.push_back(*selection.cubic);
    for (std::size_t i : order)
        if (shown.size() < 4 && std::find(shown.begin(), shown.end(), i) == shown.end())
            shown.push_back(i);
    std::vector<model::NamedModel> models;
    for (std::size_t i : shown) {
        const auto& form = selection.forms[i];
        std::optional<model::Covariance> covariance;
        if (form.uncertainty) covariance = form.uncertainty->covariance;
        models.push_back({fit::form_pair_name(form.forms),
                          fmt::format("held-out log-loss {:.6f}", form.log_loss), form.model,
                          covariance});
    }
    report::write_comparison_plot(comparison_plot_of(compare::compare_models(models, {})), png);
}

void select_model(Printer& print, const ScoreWdlOptions& options, const fit::CountGrid& grid,
                  const model::Normalization& normalization, const counts::Grouping& grouping,
                  nlohmann::ordered_json& json) {
    fit::GroupedData data(grid);
    auto forms = options.forms.empty() ? fit::default_selection_forms() : options.forms;
    auto selection = fit::select_model(data, fit_options_of(options, normalization), forms,
                                       grouping, {options.folds, options.threads});
    print("{}", fit::model_selection_report(selection));
    json["modelSelection"] = fit::model_selection_json(selection);
    if (options.learning_curve) {
        std::fflush(stdout);
        auto curve = fit::learning_curve(data, fit_options_of(options, normalization), forms,
                                         grouping, {options.folds, options.threads});
        print("{}", fit::learning_curve_report(curve));
        json["learningCurve"] = fit::learning_curve_json(curve);
    }
    if (options.plot != PlotMode::None) {
        auto png = options.png_name_selection.value_or(png_beside_summary(options, "_selection"));
        write_selection_plot(selection, png);
        print("Saved model selection plot to {}.\n", png.string());
    }
}

// --compareFiles: every input file a source of its own (e.g. a time control), from its own grid.
void compare_files(Printer& print, const ScoreWdlOptions& options,
                   const model::Normalization& normalization, const counts::Grouping& grouping,
                   const std::vector<std::unique_ptr<fit::CountGrid>>& file_grids,
                   nlohmann::ordered_json& json) {
    std::vector<std::unique_ptr<fit::GroupedData>> data;
    std::vector<const fit::GroupedData*> sources;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < options.files.size(); ++i) {
        data.push_back(std::make_unique<fit::GroupedData>(*file_grids[i]));
        sources.push_back(data.back().get());
        names.push_back(options.files[i].filename().string());
    }
    auto comparison = fit::compare_sources(sources, names, fit_options_of(options, normalization),
                                           grouping, {options.folds, options.threads});
    print("{}", fit::source_comparison_report(comparison));
    json["compareFiles"] = fit::source_comparison_json(comparison);
}

std::filesystem::path calibration_png(const ScoreWdlOptions& options) {
    return options.png_name_calibration.value_or(png_beside_summary(options, "_calibration"));
}

struct Validation {
    std::optional<fit::Resampling> resampling;
    std::optional<fit::CrossValidation> cross_validation;
};

// Resampling and cross-validation of the fit on grouped input, printed and put into the JSON.
// Cross-validation scores the engine's model of `engine` (the old model of --report).
Validation validate_fit(Printer& print, const ScoreWdlOptions& options, const fit::CountGrid& grid,
                        const fit::FitResult& fit, const model::Normalization& normalization,
                        const model::Normalization& engine, const counts::Grouping& grouping,
                        nlohmann::ordered_json& json) {
    Validation result;
    fit::GroupedData data(grid);
    fit::FitOptions fit_options = fit_options_of(options, normalization);
    if (auto method = resample_method(options.resample)) {
        fit::ResampleOptions resample;
        resample.method = *method;
        resample.bootstrap_replicates = options.bootstrap_resamples;
        resample.threads = options.threads;
        result.resampling = fit::resample_fit(data, fit, fit_options, grouping, resample);
        print("{}", fit::resampling_report(*result.resampling, fit.model));
        json["model"]["resampling"] = fit::resampling_json(*result.resampling);
    }
    if (options.cross_validate || options.report) {
        std::fflush(stdout);
        result.cross_validation = fit::cross_validate(data, fit, fit_options, engine, grouping,
                                                      {options.folds, options.threads});
        print("{}", fit::cross_validation_report(*result.cross_validation));
        json["crossValidation"] = fit::cross_validation_json(*result.cross_validation);
        if (options.plot != PlotMode::None && options.cross_validate) {
            auto png = calibration_png(options);
            report::write_calibration_plot(calibration_plot_of(*result.cross_validation), png);
            print("Saved calibration plot to {}.\n", png.string());
        }
    }
    return result;
}

// The normalization whose model cross-validation scores as the engine's: the old model's when
// there is one, so that the report's held-out scores are those of the model being replaced.
// An old model that cannot normalize counts (a fit has no clamp of its mom) is not scored.
model::Normalization engine_normalization(const model::Normalization& normalization,
                                          const std::optional<model::NamedModel>& old_model) {
    if (!old_model) return normalization;
    try {
        return model::Normalization::from_model(old_model->model);
    } catch (const Error&) {
        return model::Normalization::fixed(normalization.pawn_value());
    }
}

// The games the scan accepted, from --scanSummary (a count file does not record games); nothing
// when it cannot be read, which the report, needing the file, says.
std::optional<std::int64_t> scanned_games(const ScoreWdlOptions& options) {
    if (!options.scan_summary) return std::nullopt;
    try {
        return std::int64_t(scan::read_scan_summary(*options.scan_summary).games.accepted);
    } catch (const Error&) {
        return std::nullopt;
    }
}

// --momCut: the held-out scores of fits below and above the cut against one fit over both.
void compare_mom_cut(Printer& print, const ScoreWdlOptions& options, const fit::CountGrid& grid,
                     const model::Normalization& normalization, const counts::Grouping& grouping,
                     nlohmann::ordered_json& json) {
    fit::GroupedData data(grid);
    auto cut = fit::compare_mom_cut(data, fit_options_of(options, normalization), *options.mom_cut,
                                    grouping, {options.folds, options.threads});
    print("{}", fit::mom_cut_report(cut, model::mom_type_name(options.filter.mom_type)));
    json["momCut"] = fit::mom_cut_json(cut);
}

// A fit the data do not determine: the simpler form these very data carry, as computed advice.
void advise_simpler_fit(Printer& print, const ScoreWdlOptions& options, const fit::CountGrid& grid,
                        const std::vector<fit::MomData>& moms, const fit::FitResult& fit,
                        const model::Normalization& normalization, const InputGrouping& grouping,
                        bool validate, nlohmann::ordered_json& json) {
    std::fflush(stdout);
    std::optional<fit::GroupedData> grouped;
    if (grouping.grouping && validate) grouped.emplace(grid);
    auto simpler = fit::simpler_fit(
        moms, grouped ? &*grouped : nullptr, fit_options_of(options, normalization),
        grouping.grouping ? &*grouping.grouping : nullptr, {options.folds, options.threads});
    print("{}",
          fit::simpler_fit_report(simpler, fit, grid.totals().total(), scanned_games(options)));
    json["simplerFit"] = fit::simpler_fit_json(simpler);
}

}  // namespace

int score_wdl(const ScoreWdlOptions& options) {
    auto start = std::chrono::steady_clock::now();
    if (options.report && options.method == fit::Method::None)
        throw Error("--report needs a fit (--modelFitting is None).");
    Printer print;
    auto normalization =
        model::Normalization::from_options(options.normalize_to_pawn_value, options.normalize_data);
    print("Converting evals with {}.\n", normalization.description());
    // Loaded before the long steps, so that a bad --oldModel fails at once.
    std::optional<model::NamedModel> old_model;
    if (options.report || options.old_model) old_model = old_model_of(options, normalization);

    // Counts are kept group by group only for error bars and cross-validation.
    bool validate = options.cross_validate || options.report || options.select_model ||
                    options.mom_cut || options.compare_files ||
                    options.resample != ResampleChoice::None;
    fit::CountGrid grid(options.filter, normalization, validate);
    std::vector<std::unique_ptr<fit::CountGrid>> file_grids;
    auto grouping =
        read_inputs(print, options.files, grid, options.compare_files ? &file_grids : nullptr);
    check_validation_inputs(options, grouping);
    auto totals = grid.totals();
    print("Retained (W,D,L) = ({}, {}, {}) positions.\n", totals.wins, totals.draws, totals.losses);
    if (totals.total() == 0) {
        print("No data was found!\n");
        return 0;
    }
    if (options.png_name_distro) {
        report::write_distribution_plot(distribution_of(grid), *options.png_name_distro);
        print("Saved distribution plot to {}.\n", options.png_name_distro->string());
    }

    auto moms = fit::collect_mom_data(grid);
    std::optional<fit::FitResult> fit;
    if (options.method != fit::Method::None) {
        print("Fit WDL model based on {}.\n", model::mom_type_name(options.filter.mom_type));
        std::fflush(stdout);
        fit = fit::fit_model(moms, fit_options_of(options, normalization));
        print("{}", fit::fit_report(*fit));
    }

    nlohmann::ordered_json json;
    if (fit) json["model"] = fit::fit_json(*fit);
    bool determined = !fit || fit::fit_verdict(*fit).determined;
    if (!determined)
        advise_simpler_fit(print, options, grid, moms, *fit, normalization, grouping, validate,
                           json);
    Validation validation;
    if (fit && grouping.grouping && validate) {
        std::fflush(stdout);
        validation =
            validate_fit(print, options, grid, *fit, normalization,
                         engine_normalization(normalization, old_model), *grouping.grouping, json);
    }
    if (fit && grouping.grouping && options.select_model) {
        std::fflush(stdout);
        select_model(print, options, grid, normalization, *grouping.grouping, json);
    }
    if (fit && grouping.grouping && options.compare_files) {
        std::fflush(stdout);
        compare_files(print, options, normalization, *grouping.grouping, file_grids, json);
    }
    if (fit && grouping.grouping && options.mom_cut) {
        std::fflush(stdout);
        compare_mom_cut(print, options, grid, normalization, *grouping.grouping, json);
    }
    if (options.trainer_constants) {
        std::fflush(stdout);
        std::optional<fit::GroupedData> grouped;
        if (grouping.grouping) grouped.emplace(grid);
        auto constants =
            fit::trainer_constants(moms, grouped ? &*grouped : nullptr, options.threads);
        print("{}", fit::trainer_constants_report(constants));
        json["trainerConstants"] = fit::trainer_constants_json(constants);
    }
    json["retained"] = {{"W", totals.wins}, {"D", totals.draws}, {"L", totals.losses}};
    json["options"] = options_json(options, normalization);
    if (options.json) util::write_file_atomically(*options.json, json.dump(2) + "\n");
    // A report has a fit: --modelFitting None was refused above.
    if (options.report && fit) {
        std::string problem = grouping.grouping ? "" : grouping.problem;
        write_fit_report(
            {options, grid, moms, *fit, normalization, old_model, validation.resampling,
             validation.cross_validation, problem, print.printed(), json},
            *options.report);
        print("Wrote report.md and report.html to {}.\n", options.report->string());
    }

    if (options.plot != PlotMode::None) write_plots(print, options, grid, moms, fit, normalization);
    if (options.plot != PlotMode::SaveAndShow) {
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        print("Total elapsed time = {:.2f}s.\n", elapsed.count());
    }
    return determined ? 0 : kExitNotDetermined;
}

}  // namespace wdl::commands
