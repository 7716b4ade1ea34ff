#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/util/enum_names.hpp"

// Error bars from the groups of a grouped count file (docs/model.md, "Uncertainty"): the fit is
// repeated on resampled groups, each refit started at the full fit's optimum.
namespace wdl::fit {

enum class ResampleMethod {
    // Delete-one-group jackknife: one refit per group, leaving it out. Standard error
    // sqrt((G-1)/G * sum (t_g - mean)^2); interval estimate +- t quantile (G-1 degrees of
    // freedom) * standard error.
    Jackknife,
    // Bootstrap over groups: each refit draws G groups with replacement. Standard error: the
    // replicates' standard deviation; interval: their 2.5 % and 97.5 % quantiles.
    Bootstrap,
};
inline constexpr std::array<util::EnumName<ResampleMethod>, 2> kResampleMethodNames = {{
    {ResampleMethod::Jackknife, "jackknife"},
    {ResampleMethod::Bootstrap, "bootstrap"},
}};

std::string_view resample_method_name(ResampleMethod method);

// A quantity of a model, as a function of its coefficients (a(mom) at some mom, say).
struct ModelQuantity {
    std::string name;
    std::function<double(const model::WdlModel&)> value;
};

// The model's headline constants (model::kHeadlineConstants) as quantities.
std::vector<ModelQuantity> headline_quantities();

struct ResampleOptions {
    ResampleMethod method = ResampleMethod::Jackknife;
    int bootstrap_replicates = 200;
    std::uint64_t seed = 1;  // of the bootstrap's draws
    double confidence = 0.95;
    int threads = 1;  // refits run on this many threads; the results do not depend on it
    // Resampled after the model's constants, in this order.
    std::vector<ModelQuantity> extra_quantities;
};

// One constant of the fitted model with its resampled uncertainty.
struct ResampledEstimate {
    std::string name;     // "NormalizeToPawnValue", "spread", "drawRateAtZero", "as[0]" ... "bs[3]"
    double estimate = 0;  // of all data: for the pawn value and spread sum(as), sum(bs)
    double standard_error = 0;  // resampled
    double low = 0, high = 0;   // the confidence interval
    // Of an optimizeProbability fit: the standard error from the Fisher information (positions
    // taken as independent), and the design effect (standard_error / fisher)^2.
    std::optional<double> fisher_standard_error, design_effect;
};

struct Resampling {
    ResampleMethod method = ResampleMethod::Jackknife;
    counts::Grouping grouping;          // of the count file
    int groups = 0;                     // groups with retained positions: the resampled units
    int replicates = 0;                 // refits that converged and enter the estimates
    std::vector<std::string> failures;  // why the other refits did not converge
    double confidence = 0.95;
    std::vector<ResampledEstimate> estimates;  // empty when no_interval says why
    std::string no_interval;
};

// Refits that fail are those of the influential groups (leaving one out moves the fit most), so
// intervals from the rest would be too narrow whatever their scaling: above this share of failed
// replicates there is no interval.
inline constexpr double kMaxFailedReplicateShare = 0.1;

// Why there is no interval when `failed` of `attempted` replicates did not converge (more than
// kMaxFailedReplicateShare of them, or fewer than 2 left); nothing when there is one.
std::optional<std::string> failed_replicates_refusal(std::size_t failed, std::size_t attempted);

// Resamples the fit of the data's total. Throws wdl::Error when fewer than 2 groups retained
// positions; too many failed refits give a Resampling without estimates (no_interval).
Resampling resample_fit(const GroupedData& data, const FitResult& fit, const FitOptions& options,
                        const counts::Grouping& grouping, const ResampleOptions& resample);

// The standard error of a quantity of a converged optimizeProbability fit from its Fisher
// information (positions taken as independent), by the delta method; none without it.
std::optional<double> fisher_standard_error(const ModelQuantity& quantity, const FitResult& fit);

// The delete-one-group jackknife of several fits whose data share their groups by number in the
// file (the same games counted for each, e.g. each engine of a test on its own moves): replicate
// g leaves group g out of every data set at once, so that a figure of several fits (the ratio
// of two engines' scales) carries the correlation the shared games give it. A replicate whose
// refit fails in any data set is left out.
struct JointJackknife {
    std::vector<int> left_out;                         // the group of each replicate kept
    std::vector<std::vector<model::WdlModel>> models;  // [replicate][data set]
    int groups = 0;                                    // groups of any data set: the replicates
    std::vector<std::string> failures;                 // why the other replicates failed
};
JointJackknife jackknife_jointly(std::span<const GroupedData* const> data,
                                 std::span<const model::WdlModel> fitted, const FitOptions& options,
                                 int threads);

// The jackknife's standard error sqrt((G - 1) / G * sum (t_g - mean)^2) and interval estimate
// +- t quantile (G - 1 degrees of freedom) * standard error of a figure whose value on all data
// is `estimate` and on the replicates `replicates` (at least 2) of `groups` (G) left out in
// turn. When replicates are missing (refits that failed) the sum over G is estimated as G times
// the mean square of those present: the m that converged are not taken for m groups, which would
// shrink the variance by (m - 1) / (G - 1).
ResampledEstimate jackknife_estimate(std::string name, double estimate,
                                     const std::vector<double>& replicates, std::size_t groups,
                                     double confidence);

// The refits of `jobs` weightings of the groups, in order, on `threads` threads.
std::vector<Refit> refit_weighted(const GroupedData& data, const FitOptions& options,
                                  const model::WdlModel& fitted,
                                  const std::vector<std::vector<double>>& weights, int threads);

}  // namespace wdl::fit
