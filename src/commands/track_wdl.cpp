#include "wdl/commands/track_wdl.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>

#include "csv_field.hpp"
#include "track_scale_ratio.hpp"
#include "wdl/model/curve.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/report/track_plot.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

// The engine's current model: the pawn value its normalization converts with, and its name.
struct Reference {
    std::string name;
    double pawn_value = 0;
};

Reference reference_of(const model::Normalization& normalization) {
    if (!normalization.dynamic())
        return {fmt::format("NormalizeToPawnValue {}", normalization.pawn_value()),
                double(normalization.pawn_value())};
    const auto& dynamic = *normalization.dynamic();
    Reference reference{"the --NormalizeData model",
                        model::curve_at_target(dynamic.form, dynamic.as)};
    for (const auto& published : model::published_models())
        if (published.model.as == dynamic.as) reference.name = published.name;
    return reference;
}

std::string estimate_text(const fit::ResampledEstimate& estimate, bool interval, int digits) {
    if (!interval) return fmt::format("{:.{}f} (no interval)", estimate.estimate, digits);
    return fmt::format("{:.{}f} [{:.{}f}, {:.{}f}]", estimate.estimate, digits, estimate.low,
                       digits, estimate.high, digits);
}

nlohmann::ordered_json estimate_json(const fit::ResampledEstimate& estimate, bool interval) {
    nlohmann::ordered_json json;
    json["estimate"] = estimate.estimate;
    if (interval) {
        json["standardError"] = estimate.standard_error;
        json["low"] = estimate.low;
        json["high"] = estimate.high;
    } else {
        json["standardError"] = nullptr;
        json["low"] = nullptr;
        json["high"] = nullptr;
    }
    return json;
}

std::string side_text(int side) { return side > 0 ? "above" : side < 0 ? "below" : ""; }

// What the intervals assume, for the printed lines and the JSON.
std::string interval_text(const TrackWdlOptions& options) {
    return fmt::format(
        "{:g} % {} intervals over each window's groups (a test's games hashed into groups by "
        "scoreWDLstat --perTest --groups K, or whole tests): they take the groups as independent "
        "and the window's engine as one; a window of fewer than 2 groups has none.",
        100 * options.confidence, fit::resample_method_name(options.resample));
}

struct Drift {
    std::size_t first_window = 0;
    fit::WindowFit pooled;
};

std::string verdict_of(const std::vector<fit::Window>& windows,
                       const std::vector<fit::WindowFit>& fits, const std::optional<Drift>& drift,
                       const Reference& reference) {
    // Without any interval there is nothing to tell drift from noise by: no verdict, rather
    // than one about a window that does not exist.
    if (std::none_of(fits.begin(), fits.end(),
                     [](const fit::WindowFit& fit) { return fit.resampling.has_value(); })) {
        return "No verdict on drift: no window has an interval (a window needs a fit its data "
               "determine and 2 or more groups with positions; scan with scoreWDLstat --perTest "
               "--groups K, or widen the windows with --by).";
    }
    if (!drift || drift->pooled.estimates.empty() || !drift->pooled.resampling)
        return fmt::format(
            "No drift beyond noise: the last window with an interval agrees with "
            "{} ({:.1f}).",
            reference.name, reference.pawn_value);
    const auto& pooled = drift->pooled.estimates.front();
    const fit::Window& first = windows[drift->first_window];
    return fmt::format(
        "The scale has drifted by {:+.1f} +- {:.1f} since {} (windows {} .. {} pooled: "
        "NormalizeToPawnValue {:.1f} [{:.1f}, {:.1f}] against {}'s {:.1f}).",
        pooled.estimate - reference.pawn_value, (pooled.high - pooled.low) / 2,
        first.first_date.empty() ? first.name : first.first_date, first.name, windows.back().name,
        pooled.estimate, pooled.low, pooled.high, reference.name, reference.pawn_value);
}

// Everything a run reads and fits, for the printers and writers below.
struct Tracking {
    explicit Tracking(model::Normalization converting)
        : normalization(std::move(converting)), reference(reference_of(normalization)) {}

    model::Normalization normalization;
    Reference reference;
    std::vector<fit::TrackedUnit> units;
    std::vector<fit::Window> windows;
    std::size_t undated = 0;  // tests without the date a window needs
    fit::FitOptions fit_options;
    fit::ResampleOptions resample;
    std::vector<fit::WindowFit> fits;
    std::optional<Drift> drift;
    std::string verdict;
};

void check_options(const TrackWdlOptions& options) {
    if (options.files.empty()) throw Error("no count files to track.");
    if (options.confidence <= 0 || options.confidence >= 1)
        throw Error("--confidence must lie between 0 and 1.");
}

// Reads the count files into tests and windows them, printing what was read.
void read_windows(const TrackWdlOptions& options, Tracking& tracking) {
    tracking.units = fit::read_units(options.files, options.filter, tracking.normalization);
    std::int64_t positions = 0;
    for (const auto& unit : tracking.units) positions += unit.positions;
    fmt::print("Read {} tests from {} count files: {} retained positions.\n", tracking.units.size(),
               options.files.size(), positions);
    fmt::print("Converting evals with {}.\n", tracking.normalization.description());
    tracking.windows =
        fit::make_windows(tracking.units, options.by, options.every, tracking.undated);
    fmt::print("{} windows by {}{}.\n", tracking.windows.size(),
               fit::kWindowByNames[std::size_t(options.by)].name,
               tracking.undated
                   ? fmt::format(" ({} tests without a date left out)", tracking.undated)
                   : "");
    if (tracking.windows.empty())
        throw Error("no window to fit: no test has the label the windows need.");
    fmt::print("Engine's model: {}, NormalizeToPawnValue {:.3f} at mom {}.\n",
               tracking.reference.name, tracking.reference.pawn_value, options.mom_target);
    fmt::print("{}\n", interval_text(options));
}

// The fit and the resampling of every window, with a(m) and b(m) at --moms as extra quantities.
void set_fit_options(const TrackWdlOptions& options, Tracking& tracking) {
    tracking.fit_options.mom_type = options.filter.mom_type;
    tracking.fit_options.mom_target = options.mom_target;
    tracking.fit_options.pawn_value = tracking.normalization.pawn_value();
    auto& resample = tracking.resample;
    resample.method = options.resample;
    resample.bootstrap_replicates = options.bootstrap_resamples;
    resample.seed = options.seed;
    resample.confidence = options.confidence;
    resample.threads = options.threads;
    for (int mom : options.moms) {
        resample.extra_quantities.push_back(
            {fmt::format("a({})", mom), [mom](const model::WdlModel& m) { return m.a(mom); }});
        resample.extra_quantities.push_back(
            {fmt::format("b({})", mom), [mom](const model::WdlModel& m) { return m.b(mom); }});
    }
}

// Fits each window, then the windows from the first that departs pooled, and the verdict.
void fit_windows(const TrackWdlOptions& options, Tracking& tracking) {
    const auto& t = tracking;
    for (const auto& window : t.windows)
        tracking.fits.push_back(fit::fit_window(t.units, window.units, options.filter,
                                                t.normalization, t.fit_options, t.resample));
    if (auto start = fit::drift_start(t.fits, t.reference.pawn_value)) {
        std::vector<std::size_t> chosen;
        for (std::size_t i = *start; i < t.windows.size(); ++i)
            chosen.insert(chosen.end(), t.windows[i].units.begin(), t.windows[i].units.end());
        tracking.drift = Drift{*start, fit::fit_window(t.units, chosen, options.filter,
                                                       t.normalization, t.fit_options, t.resample)};
    }
    tracking.verdict = verdict_of(t.windows, t.fits, t.drift, t.reference);
}

// The names of the estimates of every window, in their order.
std::vector<std::string> estimate_names(const Tracking& tracking) {
    std::vector<std::string> names{"NormalizeToPawnValue", "spread", "drawRateAtZero"};
    for (const auto& quantity : tracking.resample.extra_quantities) names.push_back(quantity.name);
    return names;
}

// The table: a line per window, the values with their intervals; then the verdict.
void print_table(const Tracking& tracking) {
    fmt::print("\n{:<26} {:<10} {:<10} {:>5} {:>6} {:>10}  {:<24} {:<22} {}\n", "window", "first",
               "last", "tests", "groups", "positions", "NormalizeToPawnValue", "spread",
               "drawRateAtZero");
    for (std::size_t i = 0; i < tracking.windows.size(); ++i) {
        const auto& window = tracking.windows[i];
        const auto& fit = tracking.fits[i];
        std::string values;
        if (!fit.fit) {
            values = "no fit: " + fit.no_fit;
        } else {
            bool interval = fit.resampling.has_value();
            values = fmt::format("{:<24} {:<22} {}", estimate_text(fit.estimates[0], interval, 1),
                                 estimate_text(fit.estimates[1], interval, 1),
                                 estimate_text(fit.estimates[2], interval, 4));
            int side = fit::departure(fit, tracking.reference.pawn_value);
            if (side != 0) values += "  departs (" + side_text(side) + ")";
        }
        fmt::print("{:<26} {:<10} {:<10} {:>5} {:>6} {:>10}  {}\n", window.name.substr(0, 26),
                   window.first_date, window.last_date, window.units.size(), fit.groups,
                   fit.positions, values);
    }
    for (std::size_t i = 0; i < tracking.windows.size(); ++i)
        if (tracking.fits[i].fit && !tracking.fits[i].resampling)
            fmt::print("Window {}: no interval ({}).\n", tracking.windows[i].name,
                       tracking.fits[i].no_interval);
    fmt::print("\n{}\n", tracking.verdict);
}

nlohmann::ordered_json window_json(const Tracking& tracking, std::size_t i) {
    const auto& window = tracking.windows[i];
    const auto& fit = tracking.fits[i];
    nlohmann::ordered_json entry;
    entry["name"] = window.name;
    entry["firstDate"] = window.first_date;
    entry["lastDate"] = window.last_date;
    entry["tests"] = nlohmann::ordered_json::array();
    for (std::size_t unit : window.units) entry["tests"].push_back(tracking.units[unit].label.id);
    entry["groups"] = fit.groups;
    entry["positions"] = fit.positions;
    entry["noFit"] = fit.fit ? nlohmann::ordered_json() : nlohmann::ordered_json(fit.no_fit);
    entry["noInterval"] = fit.fit && !fit.resampling ? nlohmann::ordered_json(fit.no_interval)
                                                     : nlohmann::ordered_json();
    entry["departs"] = fit::departure(fit, tracking.reference.pawn_value);
    if (fit.fit && fit.fit->final_objective) entry["finalObjective"] = *fit.fit->final_objective;
    for (const auto& estimate : fit.estimates)
        entry["estimates"][estimate.name] = estimate_json(estimate, fit.resampling.has_value());
    return entry;
}

nlohmann::ordered_json drift_json(const Tracking& tracking) {
    if (!tracking.drift || tracking.drift->pooled.estimates.empty()) return nullptr;
    const auto& drift = *tracking.drift;
    const auto& pooled = drift.pooled.estimates.front();
    double reference = tracking.reference.pawn_value;
    return {{"since", tracking.windows[drift.first_window].first_date},
            {"firstWindow", tracking.windows[drift.first_window].name},
            {"pooled", estimate_json(pooled, drift.pooled.resampling.has_value())},
            {"drift", pooled.estimate - reference},
            {"low", pooled.low - reference},
            {"high", pooled.high - reference}};
}

// The --json twin of the printed report.
nlohmann::ordered_json tracking_json(const TrackWdlOptions& options, const Tracking& tracking) {
    nlohmann::ordered_json json;
    json["reference"] = {{"name", tracking.reference.name},
                         {"NormalizeToPawnValue", tracking.reference.pawn_value},
                         {"normalization", tracking.normalization.description()}};
    json["windowsBy"] = fit::kWindowByNames[std::size_t(options.by)].name;
    json["intervals"] = {{"method", fit::resample_method_name(options.resample)},
                         {"confidence", options.confidence},
                         {"assumes", interval_text(options)}};
    json["undatedTests"] = tracking.undated;
    json["windows"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < tracking.windows.size(); ++i)
        json["windows"].push_back(window_json(tracking, i));
    json["drift"] = drift_json(tracking);
    json["verdict"] = tracking.verdict;
    nlohmann::ordered_json published = nlohmann::ordered_json::array();
    for (const auto& model : model::published_models())
        published.push_back({{"name", model.name},
                             {"date", model.date},
                             {"NormalizeToPawnValue", model.model.a_at_target()}});
    json["publishedModels"] = published;
    return json;
}

// The --csv table: a row per window, each estimate with its interval.
std::string tracking_csv(const Tracking& tracking) {
    auto names = estimate_names(tracking);
    std::string csv = "window,first_date,last_date,tests,groups,positions,departs";
    for (const auto& name : names) csv += fmt::format(",{0},{0}_low,{0}_high", name);
    csv += "\n";
    for (std::size_t i = 0; i < tracking.windows.size(); ++i) {
        const auto& window = tracking.windows[i];
        const auto& fit = tracking.fits[i];
        csv += fmt::format("{},{},{},{},{},{},{}", csv_field(window.name), window.first_date,
                           window.last_date, window.units.size(), fit.groups, fit.positions,
                           fit::departure(fit, tracking.reference.pawn_value));
        for (std::size_t q = 0; q < names.size(); ++q) {
            if (!fit.fit) {
                csv += ",,,";
            } else if (!fit.resampling) {
                csv += fmt::format(",{:.17g},,", fit.estimates[q].estimate);
            } else {
                csv += fmt::format(",{:.17g},{:.17g},{:.17g}", fit.estimates[q].estimate,
                                   fit.estimates[q].low, fit.estimates[q].high);
            }
        }
        csv += "\n";
    }
    return csv;
}

// The plot's data: each dated window with its interval, and the published models as steps.
report::TrackPlot track_plot(const TrackWdlOptions& options, const Tracking& tracking) {
    report::TrackPlot plot;
    plot.title =
        fmt::format("NormalizeToPawnValue by {} ({} tests)",
                    fit::kWindowByNames[std::size_t(options.by)].name, tracking.units.size());
    plot.verdict = tracking.verdict;
    plot.reference = tracking.reference.pawn_value;
    plot.reference_name = tracking.reference.name;
    for (std::size_t i = 0; i < tracking.windows.size(); ++i) {
        const auto& fit = tracking.fits[i];
        if (!fit.fit || tracking.windows[i].first_date.empty()) continue;
        report::TrackPlotWindow point;
        point.date = tracking.windows[i].middle_date();
        point.value = fit.estimates[0].estimate;
        if (fit.resampling) {
            point.low = fit.estimates[0].low;
            point.high = fit.estimates[0].high;
        }
        point.departs = fit::departure(fit, tracking.reference.pawn_value) != 0;
        plot.windows.push_back(point);
    }
    std::stable_sort(plot.windows.begin(), plot.windows.end(),
                     [](const auto& x, const auto& y) { return x.date < y.date; });
    for (const auto& model : model::published_models())
        plot.steps.push_back({model.date, model.model.a_at_target(), model.name});
    return plot;
}

}  // namespace

void track_wdl(const TrackWdlOptions& options) {
    check_options(options);
    if (!options.against.empty()) return track_scale_ratio(options);
    Tracking tracking(model::Normalization::from_options(options.normalize_to_pawn_value,
                                                         options.normalize_data));
    // Opened before the fits, so that a bad path fails early.
    std::optional<util::AtomicFile> json_file, csv_file;
    if (options.json) json_file.emplace(*options.json);
    if (options.csv) csv_file.emplace(*options.csv);

    read_windows(options, tracking);
    set_fit_options(options, tracking);
    fit_windows(options, tracking);
    print_table(tracking);

    if (json_file) {
        json_file->write(tracking_json(options, tracking)
                             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                         "\n");
        json_file->commit();
        fmt::print("Wrote {}.\n", options.json->string());
    }
    if (csv_file) {
        csv_file->write(tracking_csv(tracking));
        csv_file->commit();
        fmt::print("Wrote {}.\n", options.csv->string());
    }
    if (options.png) {
        auto plot = track_plot(options, tracking);
        if (plot.windows.empty()) {
            fmt::print("No plot: no fitted window has a date.\n");
        } else {
            report::write_track_plot(plot, *options.png);
            fmt::print("Saved the plot to {}.\n", options.png->string());
        }
    }
}

}  // namespace wdl::commands
