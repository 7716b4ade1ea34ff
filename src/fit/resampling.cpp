#include "wdl/fit/resampling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <thread>

#include "wdl/stats/distributions.hpp"
#include "wdl/stats/random.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::fit {
namespace {

// The constants and every coefficient of a model of the fitted one's form.
std::vector<ModelQuantity> model_quantities(const model::WdlModel& fitted) {
    std::vector<ModelQuantity> quantities = headline_quantities();
    for (std::size_t i = 0; i < fitted.as.size(); ++i) {
        quantities.push_back(
            {fmt::format("as[{}]", i), [i](const model::WdlModel& m) { return m.as[i]; }});
    }
    for (std::size_t i = 0; i < fitted.bs.size(); ++i) {
        quantities.push_back(
            {fmt::format("bs[{}]", i), [i](const model::WdlModel& m) { return m.bs[i]; }});
    }
    return quantities;
}

// The standard error of a quantity from the coefficients' covariance, by the delta method with
// a central-difference gradient (exact for the sums, which are linear).
double delta_method_error(const ModelQuantity& quantity, const model::WdlModel& fitted,
                          const model::Covariance& covariance) {
    const std::size_t a_count = fitted.as.size(), n = a_count + fitted.bs.size();
    std::vector<double> gradient(n);
    for (std::size_t k = 0; k < n; ++k) {
        model::WdlModel up = fitted, down = fitted;
        double& c_up = k < a_count ? up.as[k] : up.bs[k - a_count];
        double& c_down = k < a_count ? down.as[k] : down.bs[k - a_count];
        double step = 1e-5 * std::max(1.0, std::abs(c_up));
        c_up += step;
        c_down -= step;
        gradient[k] = (quantity.value(up) - quantity.value(down)) / (2 * step);
    }
    double variance = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            variance += gradient[i] * covariance[i][j] * gradient[j];
    return std::sqrt(std::max(variance, 0.0));
}

// Weights of the jackknife: every group but one.
std::vector<std::vector<double>> jackknife_weights(std::size_t groups) {
    std::vector<std::vector<double>> weights(groups, std::vector<double>(groups, 1.0));
    for (std::size_t g = 0; g < groups; ++g) weights[g][g] = 0;
    return weights;
}

// Weights of the bootstrap: how often each group is drawn in `groups` draws with replacement.
std::vector<std::vector<double>> bootstrap_weights(std::size_t groups, int replicates,
                                                   std::uint64_t seed) {
    stats::Random random(seed);
    std::vector<std::vector<double>> weights(std::size_t(replicates),
                                             std::vector<double>(groups, 0.0));
    for (auto& replicate : weights)
        for (std::size_t draw = 0; draw < groups; ++draw) ++replicate[random.below(groups)];
    return weights;
}

ResampledEstimate estimate_of(const ModelQuantity& quantity, const FitResult& fit,
                              const std::vector<double>& replicates, std::size_t groups,
                              const ResampleOptions& options) {
    ResampledEstimate estimate;
    double tail = (1 - options.confidence) / 2;
    if (options.method == ResampleMethod::Jackknife) {
        estimate = jackknife_estimate(quantity.name, quantity.value(fit.model), replicates, groups,
                                      options.confidence);
    } else {
        estimate.name = quantity.name;
        estimate.estimate = quantity.value(fit.model);
        estimate.standard_error = std::sqrt(stats::sample_variance(replicates));
        std::vector<double> sorted = replicates;
        estimate.low = stats::sample_quantile(sorted, tail);
        estimate.high = stats::sample_quantile(sorted, 1 - tail);
    }
    if (auto fisher_error = fisher_standard_error(quantity, fit)) {
        double fisher = *fisher_error;
        estimate.fisher_standard_error = fisher;
        if (fisher > 0) {
            estimate.design_effect =
                estimate.standard_error * estimate.standard_error / (fisher * fisher);
        }
    }
    return estimate;
}

}  // namespace

std::vector<ModelQuantity> headline_quantities() {
    std::vector<ModelQuantity> quantities;
    for (const auto& constant : model::kHeadlineConstants)
        quantities.push_back({std::string(constant.name), constant.value});
    return quantities;
}

std::optional<double> fisher_standard_error(const ModelQuantity& quantity, const FitResult& fit) {
    if (!fit.uncertainty) return std::nullopt;
    return delta_method_error(quantity, fit.model, fit.uncertainty->covariance);
}

std::string_view resample_method_name(ResampleMethod method) {
    return util::name_of(kResampleMethodNames, method);
}

std::optional<std::string> failed_replicates_refusal(std::size_t failed, std::size_t attempted) {
    if (failed == 0) return std::nullopt;
    std::size_t converged = attempted - failed;
    if (converged < 2)
        return fmt::format("{} of {} replicates converged: an interval needs 2 or more", converged,
                           attempted);
    if (double(failed) > kMaxFailedReplicateShare * double(attempted))
        return fmt::format(
            "{} of {} replicates did not converge, more than {:.0f} %: those are the influential "
            "groups, and an interval without them would be too narrow",
            failed, attempted, kMaxFailedReplicateShare * 100);
    return std::nullopt;
}

ResampledEstimate jackknife_estimate(std::string name, double estimate,
                                     const std::vector<double>& replicates, std::size_t groups,
                                     double confidence) {
    ResampledEstimate result;
    result.name = std::move(name);
    result.estimate = estimate;
    double m = double(replicates.size()), g = double(std::max(groups, replicates.size()));
    // (G - 1) / G * (the sum of G squared deviations, G times the mean square of the m present)
    double squares = stats::sample_variance(replicates) * (m - 1);
    result.standard_error = std::sqrt((g - 1) / m * squares);
    double t = stats::student_t_quantile(1 - (1 - confidence) / 2, g - 1);
    result.low = estimate - t * result.standard_error;
    result.high = estimate + t * result.standard_error;
    return result;
}

JointJackknife jackknife_jointly(std::span<const GroupedData* const> data,
                                 std::span<const model::WdlModel> fitted, const FitOptions& options,
                                 int threads) {
    std::vector<int> groups;
    for (const GroupedData* set : data)
        for (std::size_t g = 0; g < set->group_count(); ++g) groups.push_back(set->file_group(g));
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    const std::size_t sets = data.size();
    std::vector<Refit> refits(groups.size() * sets);
    util::parallel_for(refits.size(), threads, [&](std::size_t, std::size_t job) {
        const GroupedData& set = *data[job % sets];
        int left_out = groups[job / sets];
        std::vector<double> weights(set.group_count(), 1.0);
        for (std::size_t g = 0; g < weights.size(); ++g)
            if (set.file_group(g) == left_out) weights[g] = 0;
        refits[job] = refit_model(set.weighted(weights), options, fitted[job % sets]);
    });
    JointJackknife result;
    result.groups = int(groups.size());
    for (std::size_t r = 0; r < groups.size(); ++r) {
        std::vector<model::WdlModel> models;
        for (std::size_t s = 0; s < sets; ++s) {
            const Refit& refit = refits[r * sets + s];
            if (!refit.minimization.converged) {
                result.failures.push_back(fmt::format("group {} of data set {}: {}", groups[r],
                                                      s + 1, refit.minimization.message));
                break;
            }
            models.push_back(refit.model);
        }
        if (models.size() < sets) continue;
        result.left_out.push_back(groups[r]);
        result.models.push_back(std::move(models));
    }
    return result;
}

std::vector<Refit> refit_weighted(const GroupedData& data, const FitOptions& options,
                                  const model::WdlModel& fitted,
                                  const std::vector<std::vector<double>>& weights, int threads) {
    std::vector<Refit> refits(weights.size());
    util::parallel_for(weights.size(), threads, [&](std::size_t, std::size_t i) {
        refits[i] = refit_model(data.weighted(weights[i]), options, fitted);
    });
    return refits;
}

Resampling resample_fit(const GroupedData& data, const FitResult& fit, const FitOptions& options,
                        const counts::Grouping& grouping, const ResampleOptions& resample) {
    std::size_t groups = data.group_count();
    if (groups < 2) {
        throw Error(
            fmt::format("resampling needs at least 2 groups with retained positions; "
                        "the data have {}.",
                        groups));
    }
    Resampling result;
    result.method = resample.method;
    result.grouping = grouping;
    result.groups = int(groups);
    result.confidence = resample.confidence;
    auto weights = resample.method == ResampleMethod::Jackknife
                       ? jackknife_weights(groups)
                       : bootstrap_weights(groups, resample.bootstrap_replicates, resample.seed);
    std::vector<model::WdlModel> models;
    for (const Refit& refit : refit_weighted(data, options, fit.model, weights, resample.threads)) {
        if (refit.minimization.converged) {
            models.push_back(refit.model);
        } else {
            result.failures.push_back(refit.minimization.message);
        }
    }
    result.replicates = int(models.size());
    if (auto refusal = failed_replicates_refusal(result.failures.size(), weights.size())) {
        result.no_interval = *refusal;
        return result;
    }
    auto quantities = model_quantities(fit.model);
    quantities.insert(quantities.end(), resample.extra_quantities.begin(),
                      resample.extra_quantities.end());
    for (const ModelQuantity& quantity : quantities) {
        std::vector<double> values;
        for (const auto& model : models) values.push_back(quantity.value(model));
        result.estimates.push_back(estimate_of(quantity, fit, values, groups, resample));
    }
    return result;
}

}  // namespace wdl::fit
