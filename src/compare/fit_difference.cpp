#include "wdl/compare/fit_difference.hpp"

#include <fmt/format.h>

#include <cmath>

#include "wdl/counts/count_file.hpp"
#include "wdl/fit/fit_report.hpp"
#include "wdl/fit/fit_verdict.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/util/error.hpp"

namespace wdl::compare {
namespace {

// The quantities compared: the model's constants, then a and b at each mom.
std::vector<fit::ModelQuantity> compared_quantities(const std::vector<double>& moms) {
    std::vector<fit::ModelQuantity> quantities = fit::headline_quantities();
    for (double mom : moms)
        quantities.push_back(
            {fmt::format("a({:g})", mom), [mom](const model::WdlModel& m) { return m.a(mom); }});
    for (double mom : moms)
        quantities.push_back(
            {fmt::format("b({:g})", mom), [mom](const model::WdlModel& m) { return m.b(mom); }});
    return quantities;
}

std::vector<double> default_moms(const fit::GridFilter& filter) {
    if (filter.mom_type == model::MomType::Move) return {10, 20, 30, 40, 60, 80};
    return {20, 30, 40, 50, 58, 70};
}

// Each quantity of one file's fit with its standard error.
struct FittedQuantities {
    FittedCounts fitted;
    std::vector<std::pair<double, std::optional<double>>> values;
};

FittedQuantities fit_counts(const std::filesystem::path& file,
                            const model::Normalization& normalization,
                            const FitDifferenceOptions& options,
                            const std::vector<fit::ModelQuantity>& quantities) {
    fit::CountGrid grid(options.filter, normalization, true);
    auto report = counts::read_count_file(file, grid);
    FittedQuantities result;
    result.fitted.file = file;
    result.fitted.positions = double(grid.totals().total());
    if (result.fitted.positions == 0)
        throw Error(file.string() + ": no position is retained by the filters.");
    result.fitted.fit = fit::fit_model(fit::collect_mom_data(grid), options.fit);
    const auto& fitted = result.fitted.fit;
    auto without_errors = [&](std::string why) {
        result.fitted.errors = "none: " + why;
        for (const auto& quantity : quantities)
            result.values.push_back({quantity.value(fitted.model), std::nullopt});
        return result;
    };
    // Error bars of constants that are no model would only dress them up as estimates.
    if (auto verdict = fit::fit_verdict(fitted); !verdict.determined)
        return without_errors("the fit is not determined (" + verdict.reason + ")");
    fit::GroupedData data(grid);
    if (report.grouping && data.group_count() >= 2) {
        fit::ResampleOptions resample;
        resample.threads = options.threads;
        resample.extra_quantities = quantities;
        auto resampling = fit::resample_fit(data, fitted, options.fit, *report.grouping, resample);
        if (!resampling.no_interval.empty()) return without_errors(resampling.no_interval);
        result.fitted.errors = fmt::format("jackknife over {} {} groups", resampling.groups,
                                           counts::group_by_name(report.grouping->by));
        // The model's own constants come first; ours follow them.
        auto first = resampling.estimates.size() - quantities.size();
        for (std::size_t q = 0; q < quantities.size(); ++q)
            result.values.push_back({resampling.estimates[first + q].estimate,
                                     resampling.estimates[first + q].standard_error});
        return result;
    }
    result.fitted.errors_understated = fitted.uncertainty.has_value();
    result.fitted.errors = fitted.uncertainty
                               ? "Fisher information (positions taken as independent: too "
                                 "small for positions of games)"
                               : "none (scan with --groups for error bars)";
    for (const auto& quantity : quantities)
        result.values.push_back(
            {quantity.value(fitted.model), fit::fisher_standard_error(quantity, fitted)});
    return result;
}

}  // namespace

FitDifference fit_difference(const std::filesystem::path& old_counts,
                             const std::filesystem::path& new_counts,
                             const model::Normalization& normalization,
                             const FitDifferenceOptions& options) {
    auto quantities =
        compared_quantities(options.moms.empty() ? default_moms(options.filter) : options.moms);
    auto old_fit = fit_counts(old_counts, normalization, options, quantities);
    auto new_fit = fit_counts(new_counts, normalization, options, quantities);
    FitDifference result{old_fit.fitted, new_fit.fitted, {}};
    for (std::size_t q = 0; q < quantities.size(); ++q) {
        QuantityDifference d;
        d.name = quantities[q].name;
        std::tie(d.old_value, d.old_error) = old_fit.values[q];
        std::tie(d.new_value, d.new_error) = new_fit.values[q];
        d.difference = d.new_value - d.old_value;
        if (d.old_error && d.new_error) {
            d.error = std::hypot(*d.old_error, *d.new_error);
            if (*d.error > 0) d.z = d.difference / *d.error;
        }
        result.quantities.push_back(d);
    }
    return result;
}

std::string fit_difference_text(const FitDifference& difference) {
    std::string text;
    for (const auto* fitted : {&difference.old_fit, &difference.new_fit}) {
        text += fmt::format("{} {}: {:.0f} positions retained; errors: {}.\n",
                            fitted == &difference.old_fit ? "OLD" : "NEW", fitted->file.string(),
                            fitted->positions, fitted->errors);
    }
    auto value = [](double v, const std::optional<double>& e) {
        return e ? fmt::format("{:.4g} +- {:.2g}", v, *e) : fmt::format("{:.4g}", v);
    };
    text +=
        fmt::format("{:<22}{:>20}{:>20}{:>22}{:>8}\n", "quantity", "OLD", "NEW", "NEW - OLD", "z");
    for (const auto& q : difference.quantities) {
        text += fmt::format("{:<22}{:>20}{:>20}{:>22}{:>8}\n", q.name,
                            value(q.old_value, q.old_error), value(q.new_value, q.new_error),
                            value(q.difference, q.error), q.z ? fmt::format("{:.2f}", *q.z) : "-");
    }
    for (const auto* fitted : {&difference.old_fit, &difference.new_fit}) {
        if (!fit::fit_verdict(fitted->fit).determined) {
            return text + fmt::format(
                              "No verdict on the change: the {} fit is not determined, its "
                              "constants are no model (scoreWDL on {} prints a simpler fit its "
                              "data determine).\n",
                              fitted == &difference.old_fit ? "OLD" : "NEW", fitted->file.string());
        }
    }
    const auto& pawn = difference.quantities.front();
    if (!pawn.z) {
        return text +
               "No error bars for NormalizeToPawnValue: scan with --groups to judge the change.\n";
    }
    bool significant = std::abs(*pawn.z) >= 1.96;
    text += fmt::format(
        "NormalizeToPawnValue changes by {:+.1f} +- {:.1f}: {} (|z| {} 1.96, 5 % "
        "two-sided).\n",
        pawn.difference, *pawn.error,
        significant ? "the change is significant" : "the change is within the noise",
        significant ? ">=" : "<");
    if (difference.old_fit.errors_understated || difference.new_fit.errors_understated)
        text +=
            "Caution: Fisher errors take the positions as independent; the positions of a game "
            "are not, so the errors are too small and the verdict too bold. Scan with --groups "
            "for honest ones.\n";
    return text;
}

nlohmann::ordered_json fit_difference_json(const FitDifference& difference) {
    auto fitted_json = [](const FittedCounts& fitted) {
        return nlohmann::ordered_json{{"file", fitted.file.string()},
                                      {"positions", fitted.positions},
                                      {"errors", fitted.errors},
                                      {"model", fit::fit_json(fitted.fit)}};
    };
    nlohmann::ordered_json json;
    json["old"] = fitted_json(difference.old_fit);
    json["new"] = fitted_json(difference.new_fit);
    json["quantities"] = nlohmann::ordered_json::array();
    auto optional = [](const std::optional<double>& value) {
        return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
    };
    for (const auto& q : difference.quantities) {
        json["quantities"].push_back({{"name", q.name},
                                      {"old", q.old_value},
                                      {"oldError", optional(q.old_error)},
                                      {"new", q.new_value},
                                      {"newError", optional(q.new_error)},
                                      {"difference", q.difference},
                                      {"error", optional(q.error)},
                                      {"z", optional(q.z)}});
    }
    return json;
}

}  // namespace wdl::compare
