#include "track_scale_ratio.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "csv_field.hpp"
#include "wdl/report/track_plot.hpp"
#include "wdl/scale/scale_comparison.hpp"
#include "wdl/scale/scale_report.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

// New's tests, each with Base's unit of the same test.
struct MatchedUnits {
    std::vector<fit::TrackedUnit> new_units, base_units;  // base_units[i] matches new_units[i]
    std::vector<std::string> unmatched;                   // New's tests Base's files lack
};

MatchedUnits match_units(const TrackWdlOptions& options,
                         const model::Normalization& normalization) {
    auto new_units = fit::read_units(options.files, options.filter, normalization);
    auto base_units = fit::read_units(options.against, options.filter, normalization);
    std::map<std::string, std::size_t> base_of;
    for (std::size_t i = 0; i < base_units.size(); ++i) base_of[base_units[i].label.id] = i;
    MatchedUnits matched;
    for (auto& unit : new_units) {
        auto found = base_of.find(unit.label.id);
        if (found == base_of.end()) {
            matched.unmatched.push_back(unit.label.id);
            continue;
        }
        auto& base = base_units[found->second];
        if (base.groups.size() != unit.groups.size())
            throw Error(fmt::format(
                "test {} has {} groups in New's files and {} in Base's: scan both with the same "
                "--perTest --groups K",
                unit.label.id, unit.groups.size(), base.groups.size()));
        matched.new_units.push_back(std::move(unit));
        matched.base_units.push_back(std::move(base));
    }
    return matched;
}

// The window's units of one engine as one grid whose groups are numbered alike for both
// engines: group j of the window's k-th unit is the same games in both.
std::unique_ptr<fit::CountGrid> window_grid(const std::vector<fit::TrackedUnit>& units,
                                            const fit::Window& window,
                                            const TrackWdlOptions& options,
                                            const model::Normalization& normalization) {
    auto grid = std::make_unique<fit::CountGrid>(options.filter, normalization, true);
    int group = 0;
    for (std::size_t unit : window.units) {
        for (const auto& counts : units[unit].groups) {
            for (const auto& count : counts)
                grid->add_to_group(group, counts::unpack_key(count.key), count.count);
            ++group;
        }
    }
    return grid;
}

// Whether the window's ratio interval excludes 1: +1 above, -1 below, 0 not (or no figure).
int moved(const scale::ScaleComparison& comparison) {
    if (comparison.figures.empty()) return 0;
    const auto& ratio = comparison.figures.front().paired;
    return ratio.low > 1 ? 1 : ratio.high < 1 ? -1 : 0;
}

std::string ratio_text(const scale::ScaleComparison& comparison) {
    if (comparison.figures.empty()) return "no comparison: " + comparison.no_comparison;
    const auto& figure = comparison.figures.front();
    const auto& ratio = figure.paired;
    int side = moved(comparison);
    return fmt::format("{:+6.1f} % [{:+.1f}, {:+.1f}]  unpaired +- {:.1f} %{}",
                       100 * (ratio.estimate - 1), 100 * (ratio.low - 1), 100 * (ratio.high - 1),
                       100 * figure.unpaired_error,
                       side > 0   ? "  moved up"
                       : side < 0 ? "  moved down"
                                  : "");
}

std::string verdict_of(const std::vector<fit::Window>& windows,
                       const std::vector<scale::ScaleComparison>& comparisons) {
    std::vector<std::string> moved_windows;
    for (std::size_t i = 0; i < windows.size(); ++i)
        if (moved(comparisons[i]) != 0)
            moved_windows.push_back(
                fmt::format("{} ({:+.1f} %)", windows[i].name,
                            100 * (comparisons[i].figures.front().paired.estimate - 1)));
    if (moved_windows.empty())
        return "No window's New moved the eval scale beyond noise against its Base.";
    return fmt::format("Windows whose New moved the eval scale beyond noise: {}.",
                       fmt::join(moved_windows, ", "));
}

std::string csv_of(const std::vector<fit::Window>& windows,
                   const std::vector<scale::ScaleComparison>& comparisons) {
    std::string csv =
        "window,first_date,last_date,tests,groups,ratio,low,high,standard_error,unpaired_error,"
        "moved\n";
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const auto& window = windows[i];
        const auto& comparison = comparisons[i];
        csv += fmt::format("{},{},{},{},{}", csv_field(window.name), window.first_date,
                           window.last_date, window.units.size(), comparison.groups);
        if (comparison.figures.empty()) {
            csv += ",,,,,,0\n";
            continue;
        }
        const auto& figure = comparison.figures.front();
        csv += fmt::format(",{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", figure.paired.estimate,
                           figure.paired.low, figure.paired.high, figure.paired.standard_error,
                           figure.unpaired_error, moved(comparison));
    }
    return csv;
}

report::TrackPlot plot_of(const TrackWdlOptions& options, const std::vector<fit::Window>& windows,
                          const std::vector<scale::ScaleComparison>& comparisons,
                          const std::string& verdict) {
    report::TrackPlot plot;
    plot.title = fmt::format("New's eval scale against Base's, by {}",
                             fit::kWindowByNames[std::size_t(options.by)].name);
    plot.y_label = "New's evals larger than Base's by (%)";
    plot.verdict = verdict;
    plot.reference = 0;
    plot.reference_name = "no change";
    plot.reference_note = "";
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const auto& comparison = comparisons[i];
        if (comparison.figures.empty() || windows[i].first_date.empty()) continue;
        const auto& ratio = comparison.figures.front().paired;
        plot.windows.push_back({windows[i].middle_date(), 100 * (ratio.estimate - 1),
                                100 * (ratio.low - 1), 100 * (ratio.high - 1),
                                moved(comparison) != 0});
    }
    std::stable_sort(plot.windows.begin(), plot.windows.end(),
                     [](const auto& x, const auto& y) { return x.date < y.date; });
    return plot;
}

}  // namespace

void track_scale_ratio(const TrackWdlOptions& options) {
    auto normalization =
        model::Normalization::from_options(options.normalize_to_pawn_value, options.normalize_data);
    std::optional<util::AtomicFile> json_file, csv_file;
    if (options.json) json_file.emplace(*options.json);
    if (options.csv) csv_file.emplace(*options.csv);

    auto matched = match_units(options, normalization);
    fmt::print("Read {} tests of New's moves with Base's of the same tests",
               matched.new_units.size());
    if (!matched.unmatched.empty())
        fmt::print(" ({} of New's tests left out: not in Base's files: {})",
                   matched.unmatched.size(), fmt::join(matched.unmatched, ", "));
    fmt::print(".\nConverting evals with {}.\n", normalization.description());
    std::size_t undated = 0;
    auto windows = fit::make_windows(matched.new_units, options.by, options.every, undated);
    if (windows.empty()) throw Error("no window to fit: no test has the label the windows need.");
    fmt::print("{} windows by {}{}.\n", windows.size(),
               fit::kWindowByNames[std::size_t(options.by)].name,
               undated ? fmt::format(" ({} tests without a date left out)", undated) : "");

    // trackWDL fits Stockfish's cubics, as its windows without --against do.
    auto scale_options =
        scale::scale_options_for(options.filter, options.mom_target, {}, {}, normalization,
                                 options.confidence, options.threads);
    scale_options.asymmetry = false;
    int groups = matched.new_units.empty() ? 0 : int(matched.new_units.front().groups.size());
    fmt::print("{}({} groups per test: a window's groups are those of its tests.)\n",
               scale::format_method(groups, options.confidence, false, 0), groups);

    std::vector<scale::ScaleComparison> comparisons;
    fmt::print("\n{:<26} {:<10} {:<10} {:>5} {:>6}  {}\n", "window", "first", "last", "tests",
               "groups", "NormalizeToPawnValue New/Base [interval]");
    for (const auto& window : windows) {
        auto new_grid = window_grid(matched.new_units, window, options, normalization);
        auto base_grid = window_grid(matched.base_units, window, options, normalization);
        comparisons.push_back(scale::compare_engine_grids(*new_grid, *base_grid, scale_options));
        comparisons.back().name = window.name;
        fmt::print("{:<26} {:<10} {:<10} {:>5} {:>6}  {}\n", window.name.substr(0, 26),
                   window.first_date, window.last_date, window.units.size(),
                   comparisons.back().groups, ratio_text(comparisons.back()));
    }
    auto verdict = verdict_of(windows, comparisons);
    fmt::print("\n{}\n", verdict);

    if (json_file) {
        nlohmann::ordered_json json;
        json["windowsBy"] = fit::kWindowByNames[std::size_t(options.by)].name;
        json["normalization"] = normalization.description();
        json["unmatchedTests"] = matched.unmatched;
        json["windows"] = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < windows.size(); ++i) {
            auto entry = scale::comparison_json(comparisons[i]);
            entry["firstDate"] = windows[i].first_date;
            entry["lastDate"] = windows[i].last_date;
            entry["tests"] = nlohmann::ordered_json::array();
            for (std::size_t unit : windows[i].units)
                entry["tests"].push_back(matched.new_units[unit].label.id);
            entry["moved"] = moved(comparisons[i]);
            json["windows"].push_back(std::move(entry));
        }
        json["verdict"] = verdict;
        json_file->write(json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
        json_file->commit();
        fmt::print("Wrote {}.\n", options.json->string());
    }
    if (csv_file) {
        csv_file->write(csv_of(windows, comparisons));
        csv_file->commit();
        fmt::print("Wrote {}.\n", options.csv->string());
    }
    if (options.png) {
        auto plot = plot_of(options, windows, comparisons, verdict);
        if (plot.windows.empty()) {
            fmt::print("No plot: no compared window has a date.\n");
        } else {
            report::write_track_plot(plot, *options.png);
            fmt::print("Saved the plot to {}.\n", options.png->string());
        }
    }
}

}  // namespace wdl::commands
