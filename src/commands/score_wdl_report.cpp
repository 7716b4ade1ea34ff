#include "score_wdl_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "comparison_plot_of.hpp"
#include "score_wdl_plots.hpp"
#include "wdl/compare/model_comparison.hpp"
#include "wdl/fit/fit_verdict.hpp"
#include "wdl/report/calibration_plot.hpp"
#include "wdl/report/report_document.hpp"
#include "wdl/report/summary_plot.hpp"
#include "wdl/scan/scan_summary.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/file_checksum.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;
using report::Image;
using report::Paragraph;
using report::Preformatted;
using report::Section;
using report::Table;

// The old model's displayed evals of the display table (cp), its materials, and the displayed
// evals (pawns) and materials of the W/D/L tables: the figures a reviewer of a change of the
// normalization asks about.
const std::vector<double> kDisplayedCp{50, 100, 150, 200, 300};
const std::vector<double> kDisplayMaterials{30, 40, 58, 78};
const std::vector<double> kWdlEvals{0, 0.5, 1, 1.5, 2};
constexpr double kLowMaterial = 30;

// The fit's JSON beside the report, which compareWDL reads as a model.
constexpr const char* kFitJson = "fit.json";

std::string joined(const std::vector<double>& values) {
    std::string text;
    for (double value : values) text += fmt::format("{}{:g}", text.empty() ? "" : ",", value);
    return text;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string read_text(const fs::path& file, const char* option) {
    auto text = util::read_whole_file(file);
    if (!text) throw Error(fmt::format("{}: cannot read {}", option, file.string()));
    return std::move(*text);
}

std::string old_spec(const FitReportInputs& in) {
    return in.options.old_model.value_or(in.old_model ? in.old_model->name : "OLD");
}

// The lines of the run: updateWDL.sh's, then scoreWDL's.
Section run_section(const FitReportInputs& in) {
    Section section{"The run", {}, ""};
    if (in.options.update_log) {
        section.blocks.push_back(Paragraph{"`updateWDL.sh` printed:"});
        section.blocks.push_back(
            Preformatted{lines_of(read_text(*in.options.update_log, "--updateLog"))});
    }
    section.blocks.push_back(Paragraph{"`scoreWDL` printed:"});
    section.blocks.push_back(Preformatted{lines_of(in.printed)});
    section.reproduced_by = "`" + in.options.command_line + "`";
    return section;
}

// Whether the old pawn value lies in the 95 % interval of the fitted one, and what the
// interval assumes.
Section verdict_section(const FitReportInputs& in) {
    Section section{"Verdict", {}, ""};
    // A fit that is not determined recommends nothing: no "should change to" an arbitrary
    // number (scoreWDL exits 3 and prints a simpler fit in its lines).
    if (auto verdict = fit::fit_verdict(in.fit); !verdict.determined) {
        section.blocks.push_back(Paragraph{fmt::format(
            "No verdict: the fit is not determined ({}). Its constants are not a model; "
            "scoreWDL's lines in section The run end with what to do next, the simpler form "
            "these data do determine.",
            verdict.reason)});
        section.reproduced_by = "`" + in.options.command_line + "`";
        return section;
    }
    int old_value = in.normalization.pawn_value();
    long new_value = in.fit.model.pawn_value();
    std::string change = new_value == old_value
                             ? fmt::format("NormalizeToPawnValue should stay at {}.", old_value)
                             : fmt::format("NormalizeToPawnValue should change from {} to {}.",
                                           old_value, new_value);
    section.blocks.push_back(Paragraph{change});
    double low = 0, high = 0, error = 0, estimate = 0;
    std::string assumption;
    if (in.resampling) {
        auto found = std::find_if(in.resampling->estimates.begin(), in.resampling->estimates.end(),
                                  [](const auto& e) { return e.name == "NormalizeToPawnValue"; });
        if (found == in.resampling->estimates.end())
            throw Error("the resampling has no estimate of NormalizeToPawnValue");
        low = found->low, high = found->high, error = found->standard_error;
        estimate = found->estimate;
        std::string method = in.resampling->method == fit::ResampleMethod::Bootstrap
                                 ? fmt::format("bootstrap ({} draws)", in.resampling->replicates)
                                 : std::string("jackknife");
        assumption = fmt::format(
            "{} over {} {} groups: the groups, not the positions, are taken as independent", method,
            in.resampling->groups, counts::group_by_name(in.resampling->grouping.by));
    } else if (in.fit.uncertainty) {
        estimate = in.fit.model.a_at_target();
        error = in.fit.uncertainty->pawn_value_error;
        double z = stats::normal_quantile(0.975);
        low = estimate - z * error, high = estimate + z * error;
        assumption =
            "Fisher information, positions taken as independent. Caution: the positions of a "
            "game are not independent, so this interval is too narrow, often by a factor of 2 "
            "or more; scan with `scoreWDLstat --groups 64` for an interval from whole games";
    } else {
        section.blocks.push_back(Paragraph{
            "No interval: the fit has neither resampled error bars (grouped counts) nor a "
            "Fisher standard error (a converged `--modelFitting optimizeProbability` fit)."});
        section.reproduced_by = "`" + in.options.command_line + "`";
        return section;
    }
    bool inside = low <= old_value && old_value <= high;
    section.blocks.push_back(Paragraph{fmt::format(
        "The old value {} lies {} the 95 % interval {:.0f} .. {:.0f} of the fitted value {:.1f} "
        "(+- {:.1f}): {}.",
        old_value, inside ? "inside" : "outside", low, high, estimate, error,
        inside ? "the change is within the noise" : "the change is significant")});
    section.blocks.push_back(Paragraph{"The interval assumes: " + assumption + "."});
    section.reproduced_by =
        "`" + in.options.command_line + "` (its error-bar lines in section The run)";
    return section;
}

std::string missing_old_model() {
    return "No old model to compare with: give `--oldModel` (a registry name such as sf18, a "
           "model JSON, or a Stockfish source `DIR@REV`), or a `--NormalizeData` with bs.";
}

// The run again with an old model, for the sections that need one.
std::string with_old_model(const FitReportInputs& in) {
    return fmt::format("`{} --oldModel SPEC`", in.options.command_line);
}

// How the old model's displayed evals are displayed by the new one.
Section display_section(const FitReportInputs& in, const compare::Comparison* comparison) {
    Section section{"Display mapping, old to new", {}, ""};
    if (!comparison) {
        section.blocks.push_back(Paragraph{missing_old_model()});
        section.reproduced_by = with_old_model(in);
        return section;
    }
    // Upstream's line: the old display of the eval the new model shows as 1.00, truncated.
    int old_value = in.normalization.pawn_value();
    long new_value = in.fit.model.pawn_value();
    section.blocks.push_back(Paragraph{fmt::format(
        "In the updated WDL model, {}cp would roughly map to 100cp (100 x {} / {}, truncated, as "
        "`updateWDL.sh` prints it).",
        100 * new_value / old_value, new_value, old_value)});
    std::string mom_name(model::mom_type_name(comparison->mom_type));
    section.blocks.push_back(Paragraph{fmt::format(
        "The new model's displayed eval (cp) of an eval the old model displays as the column's "
        "cp, by the old model's {}:",
        mom_name)});
    Table table;
    table.header.push_back(mom_name);
    for (double cp : kDisplayedCp) table.header.push_back(fmt::format("old {:g}cp", cp));
    for (const auto& row : comparison->rows) {
        std::vector<std::string> cells{fmt::format("{:g}", row.mom)};
        for (double cp : kDisplayedCp) {
            const auto& ratio = row.displays_reference_pawn[1];
            cells.push_back(ratio ? fmt::format("{:.0f}", cp * *ratio) : "-");
        }
        table.rows.push_back(std::move(cells));
    }
    section.blocks.push_back(std::move(table));
    for (const auto& note : comparison->notes) section.blocks.push_back(Paragraph{"Note: " + note});
    // compareWDL takes --moms only where every model reads them.
    bool comparable = comparison->models[1].comparable_mom;
    section.reproduced_by =
        fmt::format("`compareWDL {} {}{}` (column \"1.00 of A in B\", times the cp)", old_spec(in),
                    kFitJson, comparable ? " --moms " + joined(kDisplayMaterials) : std::string());
    return section;
}

Table wdl_table_of(const std::vector<compare::WdlRow>& rows) {
    Table table{{"displayed eval", "old W/D/L", "new W/D/L", "new - old W/D/L"}, {}};
    auto per_mille = [](const compare::WdlPoint& p) {
        return fmt::format("{:.0f}/{:.0f}/{:.0f}", 1000 * p.win, 1000 * p.draw, 1000 * p.loss);
    };
    // Rounded before the sign is chosen: a difference of -0.0004 is +0, not -0.
    auto signed_per_mille = [](double difference) {
        double rounded = std::round(1000 * difference);
        return fmt::format("{:+.0f}", rounded == 0 ? 0.0 : rounded);
    };
    for (const auto& row : rows) {
        const auto &old_point = row.models[0], &new_point = row.models[1];
        table.rows.push_back({fmt::format("{:+.2f}", row.pawns), per_mille(old_point),
                              per_mille(new_point),
                              signed_per_mille(new_point.win - old_point.win) + "/" +
                                  signed_per_mille(new_point.draw - old_point.draw) + "/" +
                                  signed_per_mille(new_point.loss - old_point.loss)});
    }
    return table;
}

Section wdl_section(const FitReportInputs& in, const compare::Comparison* comparison) {
    Section section{"W/D/L at displayed evals", {}, ""};
    if (!comparison) {
        section.blocks.push_back(Paragraph{missing_old_model()});
        section.reproduced_by = with_old_model(in);
        return section;
    }
    std::string mom_name(model::mom_type_name(comparison->mom_type));
    section.blocks.push_back(Paragraph{fmt::format(
        "Win/draw/loss per mille of each model at the evals it displays, at the old model's {} "
        "{:g}:",
        mom_name, comparison->target_mom)});
    section.blocks.push_back(wdl_table_of(comparison->wdl));
    section.blocks.push_back(Paragraph{fmt::format("At {} {:g}:", mom_name, kLowMaterial)});
    section.blocks.push_back(
        wdl_table_of(compare::wdl_table(*comparison, kLowMaterial, kWdlEvals)));
    section.reproduced_by = fmt::format(
        "`compareWDL {} {} --evals {}` ({} {:g}; the table at {} {:g} is this report's, from the "
        "same comparison)",
        old_spec(in), kFitJson, joined(kWdlEvals), mom_name, comparison->target_mom, mom_name,
        kLowMaterial);
    return section;
}

std::string plus_minus(double value, double error) {
    return fmt::format("{:.5f} +- {:.5f}", value, error);
}

Section held_out_section(const FitReportInputs& in) {
    Section section{"Held-out scores", {}, ""};
    if (!in.validation) {
        section.blocks.push_back(Paragraph{"No cross-validation: " + in.validation_problem + "."});
        section.reproduced_by =
            "`scoreWDLstat --groups 64 ...`, then `scoreWDL ... --crossValidate` on its counts";
        return section;
    }
    const auto& validation = *in.validation;
    section.blocks.push_back(Paragraph{fmt::format(
        "Each of {:.0f} positions scored by models fitted without its fold ({} folds of {} {} "
        "groups); +- standard errors take the groups as independent. The last column is the "
        "model's log-loss minus the new fit's, paired position by position: positive means the "
        "new fit predicts the held-out games better.",
        validation.positions, validation.folds, validation.groups,
        counts::group_by_name(validation.grouping.by))});
    for (const auto& failure : validation.failures)
        section.blocks.push_back(Paragraph{"Left out: " + failure + "."});
    Table table{{"model", "log-loss", "Brier", "score RMSE", "log-loss - new fit's"}, {}};
    for (const auto& model : validation.models) {
        std::string name = model.name == "fitted"
                               ? fmt::format("new fit ({})", fit::method_name(in.options.method))
                           : model.name == "NormalizeData" ? std::string("old model (as, bs)")
                                                           : model.description;
        table.rows.push_back({name, plus_minus(model.log_loss, model.log_loss_error),
                              plus_minus(model.brier, model.brier_error),
                              plus_minus(model.score_rmse, model.score_rmse_error),
                              model.name == "fitted"
                                  ? "-"
                                  : fmt::format("{:+.5f} +- {:.5f}", model.log_loss_difference,
                                                model.log_loss_difference_error)});
    }
    section.blocks.push_back(std::move(table));
    bool old_scored = std::any_of(validation.models.begin(), validation.models.end(),
                                  [](const auto& model) { return model.name == "NormalizeData"; });
    if (!in.old_model) {
        section.blocks.push_back(Paragraph{missing_old_model()});
    } else if (!old_scored) {
        section.blocks.push_back(Paragraph{
            "The old model is not scored: it cannot convert the games' evals as an engine "
            "does (a model whose display depends on the ply, or of evals in other units than the "
            "internal ones)."});
    }
    // Calibration by material: the bins are the same for every model.
    section.blocks.push_back(Paragraph{
        "Calibration by material: observed W/D/L per mille of the held-out positions against "
        "each model's mean prediction:"});
    Table calibration{{"material", "positions", "observed"}, {}};
    for (const auto& model : validation.models)
        calibration.header.push_back(model.name == "fitted"          ? "new fit"
                                     : model.name == "NormalizeData" ? "old model"
                                                                     : model.name);
    auto per_mille = [](const fit::Wdl& wdl) {
        return fmt::format("{:.0f}/{:.0f}/{:.0f}", 1000 * wdl[0], 1000 * wdl[1], 1000 * wdl[2]);
    };
    const auto& bins = validation.models.front().by_material;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        std::vector<std::string> cells{bins[i].label, fmt::format("{:.0f}", bins[i].positions),
                                       per_mille(bins[i].observed)};
        for (const auto& model : validation.models)
            cells.push_back(per_mille(model.by_material[i].predicted));
        calibration.rows.push_back(std::move(cells));
    }
    section.blocks.push_back(std::move(calibration));
    section.reproduced_by = "`" + in.options.command_line + " --crossValidate`";
    return section;
}

// A list of the distinct values of a field of the scan's tests, "-" for none.
// The distinct values of a field over the tests, joined; "-" if none has one.
template <class Field>
std::string distinct(const std::vector<scan::ScannedTest>& tests, Field field) {
    std::set<std::string> values;
    for (const auto& test : tests) {
        const auto& value = test.*field;
        using Value = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<Value, std::vector<std::string>>) {
            values.insert(value.begin(), value.end());
        } else if (value) {
            values.insert(fmt::format("{}", *value));
        }
    }
    std::string text;
    for (const auto& value : values) text += (text.empty() ? "" : ", ") + value;
    return text.empty() ? "-" : text;
}

void add_tests_facts(Table& table, const std::vector<scan::ScannedTest>& tests) {
    int sprt = 0;
    std::vector<double> elos;
    std::vector<std::string> starts;
    std::set<std::string> revisions;
    for (const auto& test : tests) {
        sprt += test.sprt ? 1 : 0;
        if (test.normalized_elo) elos.push_back(*test.normalized_elo);
        if (test.start_time) starts.push_back(test.start_time->substr(0, 10));
        if (test.resolved_new) revisions.insert(*test.resolved_new);
    }
    std::sort(starts.begin(), starts.end());
    std::sort(elos.begin(), elos.end());
    table.rows.push_back({"tests", std::to_string(tests.size())});
    if (!starts.empty()) {
        table.rows.push_back({"tests started", starts.front() == starts.back()
                                                   ? starts.front()
                                                   : starts.front() + " .. " + starts.back()});
    }
    table.rows.push_back({"time controls", distinct(tests, &scan::ScannedTest::time_controls)});
    table.rows.push_back({"threads", distinct(tests, &scan::ScannedTest::threads)});
    table.rows.push_back({"books", distinct(tests, &scan::ScannedTest::book)});
    table.rows.push_back({"SPRT tests", fmt::format("{} of {}", sprt, tests.size())});
    if (!elos.empty()) {
        table.rows.push_back(
            {"nElo of the tests", fmt::format("{:.2f} .. {:.2f}", elos.front(), elos.back())});
    }
    table.rows.push_back({"new engines' revisions", std::to_string(revisions.size())});
}

void add_filter_facts(Table& table, const games::FileFilters& filters) {
    auto bound = [](const std::optional<double>& value) {
        return value ? fmt::format("{:g}", *value) : std::string("-");
    };
    table.rows.push_back({"nElo window (`--EloDiffMin`, `--EloDiffMax`)",
                          bound(filters.elo_diff_min) + " .. " + bound(filters.elo_diff_max)});
    table.rows.push_back({"SPRT only (`--SPRTonly`)", filters.sprt_only ? "yes" : "no"});
    std::string threads = filters.match_threads ? std::to_string(*filters.match_threads) : "";
    for (auto [name, value] : {std::pair{"matchTC", &filters.match_tc},
                               {"matchThreads", &threads},
                               {"matchBook", &filters.match_book},
                               {"matchRev", &filters.match_rev}}) {
        std::string shown = *value;
        if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
        table.rows.push_back(
            {fmt::format("`--{}`", name), shown.empty() ? "-" : "`" + shown + "`"});
    }
}

void add_scan_facts(Section& section, const scan::ScanSummary& scan) {
    Table table{{"", "value"}, {}};
    if (!scan.tests.empty()) add_tests_facts(table, scan.tests);
    if (scan.filters) add_filter_facts(table, *scan.filters);
    const auto& games = scan.games;
    table.rows.push_back({"games read", std::to_string(games.read)});
    table.rows.push_back({"games accepted", std::to_string(games.accepted)});
    if (games.adjudicated)
        table.rows.push_back({"games accepted: adjudicated", std::to_string(*games.adjudicated)});
    // The games lost on time are some of those of an excluded termination, in a row of their own
    // under it: the rows of reasons add up to the games skipped.
    auto skipped = games.skipped;
    std::sort(skipped.begin(), skipped.end());
    for (const auto& [reason, count] : skipped) {
        table.rows.push_back({"games skipped: " + reason, std::to_string(count)});
        if (reason == games::describe(games::GameSkipReason::BadTermination) &&
            games.time_forfeits) {
            table.rows.push_back({"games skipped: excluded termination, of which lost on time",
                                  std::to_string(*games.time_forfeits)});
        }
    }
    table.rows.push_back({"positions counted", std::to_string(scan.positions)});
    section.blocks.push_back(std::move(table));
}

Section data_section(const FitReportInputs& in) {
    Section section{"The data", {}, ""};
    if (in.options.revision_range)
        section.blocks.push_back(
            Paragraph{"Stockfish revisions: " + *in.options.revision_range + "."});
    std::string scan_file;
    if (in.options.scan_summary) {
        scan_file = in.options.scan_summary->string();
        scan::ScanSummary scan;
        try {
            scan = scan::read_scan_summary(*in.options.scan_summary);
        } catch (const Error& error) {
            throw Error(std::string("--scanSummary: ") + error.what());
        }
        section.blocks.push_back(Paragraph{"The scan (`" + scan_file + "`):"});
        add_scan_facts(section, scan);
    } else {
        section.blocks.push_back(Paragraph{
            "No scan summary given (`--scanSummary`, the `scoreWDLstat --json` file): the tests "
            "and skipped games are not known here."});
    }
    auto totals = in.grid.totals();
    section.blocks.push_back(
        Paragraph{fmt::format("The fit retained (W, D, L) = ({}, {}, {}) positions, {} in all.",
                              totals.wins, totals.draws, totals.losses, totals.total())});
    Table files{{"count file", "CRC-32"}, {}};
    for (const auto& file : in.options.files)
        files.rows.push_back(
            {fmt::format("`{}`", file.string()), fmt::format("{:08x}", util::file_crc32(file))});
    section.blocks.push_back(std::move(files));
    section.blocks.push_back(Paragraph{
        "The checksum is the CRC-32 of the count file's bytes (zlib's, as gzip and PNG use)."});
    section.reproduced_by =
        fmt::format("`scoreWDLstat ... --json {}`; the checksum: any CRC-32 tool on the count file",
                    scan_file.empty() ? "FILE" : scan_file);
    return section;
}

Section plots_section(const FitReportInputs& in, const fs::path& folder,
                      const compare::Comparison* comparison) {
    Section section{"Plots", {}, ""};
    report::write_summary_plot(summary_plot_of(in.grid, in.moms, in.fit, in.normalization,
                                               in.options.mom_target, in.options.plot_range),
                               folder / "fit.png");
    section.blocks.push_back(Image{"fit.png", "The fit's summary (`scoreWDL --plot save`)"});
    if (comparison) {
        report::write_comparison_plot(comparison_plot_of(*comparison), folder / "old_vs_new.png");
        section.blocks.push_back(Image{
            "old_vs_new.png",
            fmt::format("Old (A) against new (B): a(m) with +-1 standard error bands where known, "
                        "b(m), W/D/L curves and the display of A's 1.00 (`compareWDL {} {}`)",
                        old_spec(in), kFitJson)});
    } else {
        section.blocks.push_back(Paragraph{missing_old_model()});
    }
    if (in.validation) {
        report::write_calibration_plot(calibration_plot_of(*in.validation),
                                       folder / "calibration.png");
        section.blocks.push_back(Image{
            "calibration.png",
            "Calibration of the held-out predictions (`scoreWDL --crossValidate --plot save`)"});
    }
    section.reproduced_by = "each plot's caption; `fit.png` is `--pngName` of the same run";
    return section;
}

}  // namespace

std::optional<model::NamedModel> old_model_of(const ScoreWdlOptions& options,
                                              const model::Normalization& normalization) {
    if (options.old_model) return model::load_model(*options.old_model);
    if (!normalization.model()) return std::nullopt;
    return model::NamedModel{"NormalizeData", "the --NormalizeData model", *normalization.model(),
                             std::nullopt};
}

void write_fit_report(const FitReportInputs& in, const fs::path& folder) {
    fs::create_directories(folder);
    util::write_file_atomically(folder / kFitJson, in.fit_json.dump(2) + "\n");
    std::optional<compare::Comparison> comparison;
    if (in.old_model) {
        model::NamedModel fitted{kFitJson, "this fit", in.fit.model, std::nullopt};
        if (in.fit.uncertainty) fitted.covariance = in.fit.uncertainty->covariance;
        comparison =
            compare::compare_models({*in.old_model, fitted}, {kDisplayMaterials, kWdlEvals});
    }
    const compare::Comparison* compared = comparison ? &*comparison : nullptr;
    report::Document document;
    document.title = "WDL model update";
    document.introduction.push_back(Paragraph{fmt::format(
        "The fit of `{}` (new, B) against {} (old, A), written by wdlfit's `scoreWDL --report`. "
        "The model is Stockfish's: W = 1 / (1 + exp(-(x - a) / b)) with a and b cubic in "
        "material / 58.",
        [&] {
            std::string files;
            for (const auto& file : in.options.files)
                files += fmt::format("{}{}", files.empty() ? "" : " ", file.string());
            return files;
        }(),
        in.old_model ? fmt::format("`{}` ({})", in.old_model->name, in.old_model->description)
                     : std::string("no old model"))});
    document.sections.push_back(run_section(in));
    document.sections.push_back(verdict_section(in));
    document.sections.push_back(display_section(in, compared));
    document.sections.push_back(wdl_section(in, compared));
    document.sections.push_back(held_out_section(in));
    document.sections.push_back(data_section(in));
    document.sections.push_back(plots_section(in, folder, compared));
    report::write_report(document, folder);
}

}  // namespace wdl::commands
