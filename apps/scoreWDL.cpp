// scoreWDL: fits Stockfish's WDL model to scanner counts (drop-in for scoreWDL.py).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/fit/fitter.hpp"
#include "wdl/fit/report_text.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/count_file.hpp"
#include "wdl/model/count_grid.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/report/plots.hpp"
#include "wdl/util/atomic_file.hpp"

namespace {

using wdl::fit::Method;
using wdl::model::MomType;

struct Options {
    std::vector<std::string> files{"scoreWDLstat.json"};
    std::optional<int> normalize_to_pawn_value;
    std::optional<std::string> normalize_data;
    wdl::model::GridFilter filter;
    std::string mom_type = "material";
    int mom_target = 58;
    std::string model_fitting = "optimizeProbability";
    std::int64_t win_min = 10;
    std::optional<int> mom_plot_min, mom_plot_max, mom_plot_target;
    std::string plot = "save+show";
    std::string png_name = "scoreWDL.png";
    std::optional<std::string> png_name_distro;
    std::optional<std::string> json;
};

void add_options(CLI::App& app, Options& o) {
    app.add_option("filename", o.files, "JSON file(s) with the scanner's W/D/L counts (summed)")
        ->capture_default_str();
    app.add_option("--NormalizeToPawnValue", o.normalize_to_pawn_value,
                   "Static normalization: the old p_a(momTarget) that converted the games' "
                   "internal evals to cp");
    app.add_option("--NormalizeData", o.normalize_data,
                   fmt::format("Dynamic normalization as JSON, e.g. {} (the default unless "
                               "--NormalizeToPawnValue is given)",
                               wdl::model::kDefaultNormalizeData));
    app.add_option("--moveMin", o.filter.move_min, "Drop keys with a lower move number")
        ->capture_default_str();
    app.add_option("--moveMax", o.filter.move_max, "Drop keys with a higher move number")
        ->capture_default_str();
    app.add_option("--materialMin", o.filter.material_min, "Drop keys with less material")
        ->capture_default_str();
    app.add_option("--materialMax", o.filter.material_max, "Drop keys with more material")
        ->capture_default_str();
    app.add_option("--evalMax", o.filter.eval_max_cp,
                   "Keep |internal eval| <= round(evalMax * pawn value / 100) (evalMax in cp)")
        ->capture_default_str();
    app.add_option("--momType", o.mom_type, "The mom the model depends on")
        ->check(CLI::IsMember({"move", "material"}))
        ->capture_default_str();
    app.add_option("--momTarget", o.mom_target,
                   "The polynomials are in t = mom / momTarget; NormalizeToPawnValue = p_a(1)")
        ->check(CLI::Range(1, std::numeric_limits<int>::max()))
        ->capture_default_str();
    app.add_option("--modelFitting", o.model_fitting,
                   "fitDensity: fit the win rate curves; optimizeProbability: maximize the "
                   "likelihood of the outcomes; optimizeScore: minimize the squared score error; "
                   "None: only read the data")
        ->check(CLI::IsMember({"fitDensity", "optimizeProbability", "optimizeScore", "None"}))
        ->capture_default_str();
    app.add_option("--winMin", o.win_min, "Skip the local fit of moms with fewer wins")
        ->capture_default_str();
    app.add_option("--momPlotMin", o.mom_plot_min, "Lowest mom plotted (default: the filter's)");
    app.add_option("--momPlotMax", o.mom_plot_max, "Highest mom plotted (default: the filter's)");
    app.add_option("--momPlotTarget", o.mom_plot_target,
                   "Mom of the density subplot (default: momTarget)");
    app.add_option("--plot", o.plot, "Save and show the summary plot, only save it, or neither")
        ->check(CLI::IsMember({"save+show", "save", "no"}))
        ->capture_default_str();
    app.add_option("--pngName", o.png_name, "File of the summary plot")->capture_default_str();
    app.add_option("--pngNameDistro", o.png_name_distro,
                   "Also save a plot of the W/D/L position counts per mom to this file");
    app.add_option("--json", o.json,
                   "Also write the fitted model, objective values, retained counts, local fits "
                   "and all options as JSON to this file");
}

wdl::model::Normalization make_normalization(const Options& o) {
    if (o.normalize_to_pawn_value)
        return wdl::model::Normalization::fixed(*o.normalize_to_pawn_value);
    return wdl::model::Normalization::from_json(
        o.normalize_data ? *o.normalize_data : std::string(wdl::model::kDefaultNormalizeData));
}

nlohmann::ordered_json options_json(const Options& o, const wdl::model::Normalization& norm) {
    nlohmann::ordered_json j;
    j["filename"] = o.files;
    if (o.normalize_to_pawn_value) {
        j["NormalizeToPawnValue"] = *o.normalize_to_pawn_value;
    } else {
        j["NormalizeData"] = nlohmann::ordered_json::parse(
            o.normalize_data ? *o.normalize_data : wdl::model::kDefaultNormalizeData);
    }
    j["moveMin"] = o.filter.move_min;
    j["moveMax"] = o.filter.move_max;
    j["materialMin"] = o.filter.material_min;
    j["materialMax"] = o.filter.material_max;
    j["evalMax"] = o.filter.eval_max_cp;
    j["momType"] = o.mom_type;
    j["momTarget"] = o.mom_target;
    j["modelFitting"] = o.model_fitting;
    j["winMin"] = o.win_min;
    j["inputPawnValue"] = norm.pawn_value();
    return j;
}

nlohmann::ordered_json model_json(const Options& o, const wdl::fit::FitResult& fit) {
    double sum_a = wdl::model::coefficient_sum(fit.as), sum_b = wdl::model::coefficient_sum(fit.bs);
    nlohmann::ordered_json j;
    j["as"] = fit.as;
    j["bs"] = fit.bs;
    j["momType"] = o.mom_type;
    j["momTarget"] = o.mom_target;
    j["NormalizeToPawnValue"] = wdl::fit::python_round_up_half(sum_a);
    j["spread"] = wdl::fit::python_round_up_half(sum_b);
    j["normalizedSpread"] = sum_b / sum_a;
    j["drawRateAtZero"] = 1 - 2 / (1 + std::exp(sum_a / sum_b));
    if (fit.initial_objective) j["initialObjective"] = *fit.initial_objective;
    if (fit.final_objective) j["finalObjective"] = *fit.final_objective;
    if (fit.minimization) {
        j["converged"] = fit.minimization->converged;
        if (!fit.minimization->converged) j["solverMessage"] = fit.minimization->message;
    }
    if (fit.uncertainty) {
        j["uncertainty"] = {
            {"NormalizeToPawnValueStandardError", fit.uncertainty->pawn_value_error},
            {"spreadStandardError", fit.uncertainty->spread_error},
            {"covariance", fit.uncertainty->covariance},
            {"assumes", "independent positions (lower bounds for game data)"}};
    }
    j["skippedMoms"] = fit.skipped_moms;
    auto& failed = j["failedLocalFits"] = nlohmann::ordered_json::array();
    for (const auto& f : fit.failed_local_fits) {
        failed.push_back({{"mom", f.mom}, {"reason", f.reason}});
    }
    auto& local = j["localFits"] = nlohmann::ordered_json::array();
    for (const auto& l : fit.local_fits) local.push_back({{"mom", l.mom}, {"a", l.a}, {"b", l.b}});
    return j;
}

wdl::report::Distribution distribution_of(const wdl::model::CountGrid& grid, const Options& o) {
    wdl::report::Distribution d;
    d.mom_name = o.mom_type;
    for (int mom = grid.mom_min(); mom <= grid.mom_max(); ++mom) {
        auto totals = grid.totals_at_mom(mom);
        d.moms.push_back(mom);
        d.wins.push_back(double(totals.wins));
        d.draws.push_back(double(totals.draws));
        d.losses.push_back(double(totals.losses));
    }
    return d;
}

wdl::report::SummaryPlot summary_plot_of(const wdl::model::CountGrid& grid,
                                         const std::vector<wdl::fit::MomData>& moms,
                                         const std::optional<wdl::fit::FitResult>& fit,
                                         const wdl::model::Normalization& norm, const Options& o) {
    wdl::report::SummaryPlot plot;
    plot.mom_name = o.mom_type;
    plot.pawn_value = norm.pawn_value();
    plot.mom_plot_min = o.mom_plot_min.value_or(grid.mom_min());
    plot.mom_plot_max = o.mom_plot_max.value_or(grid.mom_max());
    plot.mom_plot_target = o.mom_plot_target.value_or(o.mom_target);
    for (const auto& mom : moms) {
        for (const auto& c : mom.cells) {
            plot.cells.push_back({mom.mom, int(c.eval), c.wins, c.draws, c.losses});
        }
    }
    if (fit) {
        wdl::report::FittedModel model;
        model.a = {fit->as, o.mom_target};
        model.b = {fit->bs, o.mom_target};
        for (const auto& l : fit->local_fits) {
            model.local_moms.push_back(l.mom);
            model.local_as.push_back(l.a);
            model.local_bs.push_back(l.b);
        }
        const auto& dynamic = norm.dynamic();
        if (dynamic && wdl::model::mom_type_name(dynamic->mom_type) == o.mom_type) {
            model.input_a = wdl::report::Cubic{dynamic->as, int(dynamic->mom_target)};
        }
        plot.model = std::move(model);
    }
    return plot;
}

void print_fit(const wdl::fit::FitResult& fit, const Options& o) {
    if (!fit.skipped_moms.empty()) {
        fmt::print("{}\n", wdl::fit::skipped_moms_warning(o.mom_type, fit.skipped_moms));
    }
    for (const auto& failed : fit.failed_local_fits) {
        fmt::print(
            "Warning: The local fit at {} {} did not converge, so it is left out of the "
            "polynomial fits: {}.\n",
            o.mom_type, failed.mom, failed.reason);
    }
    if (fit.minimization) {
        fmt::print("Initial objective function:  {}\n",
                   wdl::model::python_float_repr(*fit.initial_objective));
        fmt::print("Final objective function:    {}\n",
                   wdl::model::python_float_repr(*fit.final_objective));
        if (fit.minimization->converged) {
            fmt::print("Optimization terminated successfully.\n");
        } else {
            fmt::print("Warning: Optimization did not converge: {}\n", fit.minimization->message);
        }
    }
    fmt::print("{}", wdl::fit::model_summary(fit.as, fit.bs, o.mom_type, o.mom_target));
    if (fit.uncertainty) {
        fmt::print(
            "Standard errors: NormalizeToPawnValue {:.2f}, spread {:.2f} (positions taken as "
            "independent; the positions of a game are not, so the true errors are larger).\n",
            fit.uncertainty->pawn_value_error, fit.uncertainty->spread_error);
    }
}

// Python's json.load silently keeps the last count of a key given twice; we say so.
void warn_repeated_keys(const std::string& file, const std::vector<std::string>& keys) {
    constexpr std::size_t kShown = 10;
    for (std::size_t i = 0; i < std::min(keys.size(), kShown); ++i) {
        fmt::print("Warning: {}: key \"{}\" is given more than once; its last count is used.\n",
                   file, keys[i]);
    }
    if (keys.size() > kShown) {
        fmt::print("Warning: {}: {} more repetitions of keys; their last counts are used.\n", file,
                   keys.size() - kShown);
    }
}

int run(const Options& o) {
    auto start = std::chrono::steady_clock::now();
    auto normalization = make_normalization(o);
    fmt::print("Converting evals with {}.\n", normalization.description());

    wdl::model::GridFilter filter = o.filter;
    filter.mom_type = *wdl::model::mom_type_from_name(o.mom_type);
    wdl::model::CountGrid grid(filter, normalization);
    for (const auto& file : o.files) {
        fmt::print("Reading eval stats from {}.\n", file);
        std::fflush(stdout);
        auto report = wdl::model::add_count_file(file, grid);
        warn_repeated_keys(file, report.repeated_keys);
    }
    auto totals = grid.totals();
    fmt::print("Retained (W,D,L) = ({}, {}, {}) positions.\n", totals.wins, totals.draws,
               totals.losses);
    if (totals.total() == 0) {
        fmt::print("No data was found!\n");
        return 0;
    }
    if (o.png_name_distro) {
        wdl::report::write_distribution_plot(distribution_of(grid, o), *o.png_name_distro);
        fmt::print("Saved distribution plot to {}.\n", *o.png_name_distro);
    }

    auto moms = wdl::fit::collect_mom_data(grid);
    Method method = *wdl::fit::method_from_name(o.model_fitting);
    std::optional<wdl::fit::FitResult> fit;
    if (method != Method::None) {
        fmt::print("Fit WDL model based on {}.\n", o.mom_type);
        std::fflush(stdout);
        fit = wdl::fit::fit_model(moms,
                                  {method, o.mom_target, o.win_min, normalization.pawn_value()});
        print_fit(*fit, o);
    }

    if (o.json) {
        nlohmann::ordered_json j;
        if (fit) j["model"] = model_json(o, *fit);
        j["retained"] = {{"W", totals.wins}, {"D", totals.draws}, {"L", totals.losses}};
        j["options"] = options_json(o, normalization);
        wdl::util::write_file_atomically(*o.json, j.dump(2) + "\n");
    }

    if (o.plot != "no") {
        fmt::print("Preparing plots.\n");
        std::fflush(stdout);
        wdl::report::write_summary_plot(summary_plot_of(grid, moms, fit, normalization, o),
                                        o.png_name);
        fmt::print("Saved graphics to {}.\n", o.png_name);
        if (o.plot == "save+show" && !wdl::report::show_plot(o.png_name)) {
            fmt::print(
                "Cannot show {}: no display ($DISPLAY and $WAYLAND_DISPLAY are unset) or no "
                "image viewer (xdg-open) could open it; the plot is saved.\n",
                o.png_name);
        }
    }
    if (o.plot != "save+show") {
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        fmt::print("Total elapsed time = {:.2f}s.\n", elapsed.count());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app(
        "Fit Stockfish's WDL model to the scanner's game statistics. Given an internal eval x, "
        "W(x) = 1 / (1 + exp(-(x - a) / b)), L(x) = W(-x), D(x) = 1 - W(x) - L(x), where "
        "a = p_a(mom) and b = p_b(mom) are cubics in t = mom / momTarget (mom: material count or "
        "move number). Prints {c3, c2, c1, c0} of p_a and p_b as Stockfish's as[] and bs[].");
    Options options;
    add_options(app, options);
    CLI11_PARSE(app, argc, argv);
    if (options.normalize_to_pawn_value && options.normalize_data) {
        fmt::print(stderr,
                   "Error: Can only specify one of --NormalizeToPawnValue and --NormalizeData.\n");
        return 2;
    }
    try {
        return run(options);
    } catch (const std::exception& error) {
        std::fflush(stdout);
        fmt::print(stderr, "{}\n", error.what());
        return 1;
    }
}
