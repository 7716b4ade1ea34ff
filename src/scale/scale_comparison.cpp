#include "wdl/scale/scale_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "wdl/fit/fit_verdict.hpp"
#include "wdl/fit/folds.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/curve.hpp"
#include "wdl/scale/strength_model.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::scale {
namespace {

using ModelFigure = std::function<double(const model::WdlModel&)>;

// A grid's data fitted as scoreWDL fits a count file; none, with the reason, when the fit fails
// or its data do not determine it.
EngineFit fit_engine(const fit::CountGrid& grid, const fit::GroupedData& data,
                     const fit::FitOptions& options) {
    EngineFit result;
    result.positions = double(grid.totals().total());
    if (result.positions == 0) {
        result.no_fit = "no retained positions";
        return result;
    }
    try {
        result.fit = fit::fit_model(data.total(), options);
    } catch (const Error& error) {
        result.no_fit = error.what();
        return result;
    }
    if (auto verdict = fit::fit_verdict(*result.fit); !verdict.determined) {
        result.no_fit = "the fit is not determined: " + verdict.reason;
        result.fit.reset();
    }
    return result;
}

// Each constant of each data set with its jackknife error from the joint replicates.
void add_estimates(std::span<EngineFit* const> fits, const fit::JointJackknife& jackknife,
                   double confidence) {
    for (std::size_t s = 0; s < fits.size(); ++s) {
        for (const auto& [name, figure] : model::kHeadlineConstants) {
            std::vector<double> replicates;
            for (const auto& models : jackknife.models) replicates.push_back(figure(models[s]));
            fits[s]->estimates.push_back(
                fit::jackknife_estimate(std::string(name), figure(fits[s]->fit->model), replicates,
                                        std::size_t(jackknife.groups), confidence));
        }
    }
}

// A ratio's estimate and interval from those of its log, exp(log r +- t se): the jackknife of a
// ratio is near normal on the log scale, where its interval cannot reach below 0. The standard
// error is r times that of log r (the delta method).
fit::ResampledEstimate ratio_estimate(std::string name, double log_estimate,
                                      const std::vector<double>& log_replicates, std::size_t groups,
                                      double confidence) {
    auto estimate =
        fit::jackknife_estimate(std::move(name), log_estimate, log_replicates, groups, confidence);
    estimate.estimate = std::exp(log_estimate);
    estimate.standard_error *= estimate.estimate;
    estimate.low = std::exp(estimate.low);
    estimate.high = std::exp(estimate.high);
    return estimate;
}

// A figure of the two fits (a ratio or a difference of one constant) with its paired jackknife
// interval, and the error the two fits' own jackknife errors give it as independent estimates.
PairedFigure paired_figure(const std::string& name, const ModelFigure& constant, bool ratio,
                           const model::WdlModel& first, const model::WdlModel& second,
                           const fit::JointJackknife& jackknife, double first_error,
                           double second_error, double confidence) {
    // A ratio is jackknifed as log x - log y and its interval taken back from the log scale.
    auto combine = [ratio](double x, double y) { return ratio ? std::log(x / y) : x - y; };
    std::vector<double> replicates;
    for (const auto& models : jackknife.models)
        replicates.push_back(combine(constant(models[0]), constant(models[1])));
    double x = constant(first), y = constant(second);
    const auto groups = std::size_t(jackknife.groups);
    PairedFigure figure{
        ratio ? ratio_estimate(name, combine(x, y), replicates, groups, confidence)
              : fit::jackknife_estimate(name, combine(x, y), replicates, groups, confidence),
        0};
    figure.unpaired_error = ratio ? std::abs(x / y) * std::hypot(first_error / x, second_error / y)
                                  : std::hypot(first_error, second_error);
    return figure;
}

// Fits of several data sets of the same games and their joint jackknife; false (with the
// reason) when a fit or the jackknife fails.
bool fit_jointly(std::span<EngineFit* const> fits, const std::vector<const fit::GroupedData*>& data,
                 const ScaleOptions& options, fit::JointJackknife& jackknife, std::string& reason) {
    std::vector<model::WdlModel> fitted;
    for (EngineFit* engine : fits) {
        if (!engine->fit) {
            reason = "no fit to compare (" + engine->no_fit + ")";
            return false;
        }
        fitted.push_back(engine->fit->model);
    }
    jackknife = fit::jackknife_jointly(data, fitted, options.fit, options.threads);
    if (auto refusal = fit::failed_replicates_refusal(jackknife.failures.size(),
                                                      std::size_t(jackknife.groups))) {
        reason = "no intervals: " + *refusal;
        return false;
    }
    add_estimates(fits, jackknife, options.confidence);
    return true;
}

// The weights that keep only the groups `keep` says of a data set's groups.
template <typename Keep>
std::vector<double> weights_of(const fit::GroupedData& data, Keep&& keep) {
    std::vector<double> weights(data.group_count());
    for (std::size_t g = 0; g < weights.size(); ++g) weights[g] = keep(data.file_group(g)) ? 1 : 0;
    return weights;
}

using EngineMoms = std::array<std::vector<fit::MomData>, 2>;
using EngineModels = std::array<const model::WdlModel*, 2>;

// Each held-out group scored by the strength model with scales per side against the model
// without the engine's own, both fitted (with each engine's symmetric model) on the other
// folds; per engine, the difference per position with its error over groups.
std::array<HeldOutDifference, 2> held_out_differences(
    const std::array<const fit::GroupedData*, 2>& data,
    const std::array<model::WdlModel, 2>& fitted, const StrengthParameters& start, int groups,
    const ScaleOptions& options) {
    std::array<HeldOutDifference, 2> results;
    const int folds = std::min(options.folds, groups);
    auto fold_of = [&](int group) { return fit::fold_of(std::size_t(group), folds); };
    std::array<std::vector<double>, 2> differences, positions;
    for (int role = 0; role < 2; ++role) {
        differences[std::size_t(role)].assign(std::size_t(groups), 0);
        positions[std::size_t(role)].assign(std::size_t(groups), 0);
    }
    std::vector<std::string> failures(static_cast<std::size_t>(folds));
    util::parallel_for(std::size_t(folds), options.threads, [&](std::size_t, std::size_t fold) {
        auto training = [&](int g) { return fold_of(g) != int(fold); };
        std::array<model::WdlModel, 2> models;
        EngineMoms moms;
        for (int role = 0; role < 2; ++role) {
            const auto& engine = *data[std::size_t(role)];
            auto refit = fit::refit_model(engine.weighted(weights_of(engine, training)),
                                          options.fit, fitted[std::size_t(role)]);
            if (!refit.minimization.converged) {
                failures[fold] = refit.minimization.message;
                return;
            }
            models[std::size_t(role)] = refit.model;
            moms[std::size_t(role)] = engine.weighted(weights_of(engine, training));
        }
        EngineModels pointers{&models[0], &models[1]};
        // An engine's scales are judged against the model without them, the other engine's
        // kept: without them the strength term would take the other's asymmetry too, and a
        // symmetric engine would seem to gain from scales that only mend the other's.
        auto sides = fit_strength_model(moms, pointers, {true, true}, start);
        std::array<StrengthFit, 2> without{
            fit_strength_model(moms, pointers, {false, true}, start),
            fit_strength_model(moms, pointers, {true, false}, start)};
        if (!sides.converged || !without[0].converged || !without[1].converged) {
            failures[fold] = "the strength model did not converge";
            return;
        }
        for (int g = 0; g < groups; ++g) {
            if (fold_of(g) != int(fold)) continue;
            auto only = [g](int group) { return group == g; };
            for (int role = 0; role < 2; ++role) {
                const auto& engine = *data[std::size_t(role)];
                auto held = engine.weighted(weights_of(engine, only));
                const auto& model = models[std::size_t(role)];
                differences[std::size_t(role)][std::size_t(g)] =
                    strength_log_loss(held, model, role, sides.parameters) -
                    strength_log_loss(held, model, role, without[std::size_t(role)].parameters);
                for (const auto& mom : held)
                    positions[std::size_t(role)][std::size_t(g)] += mom.total;
            }
        }
    });
    for (const auto& failure : failures)
        if (!failure.empty()) throw Error("a held-out refit did not converge: " + failure);
    for (int role = 0; role < 2; ++role) {
        const auto& held = positions[std::size_t(role)];
        auto scored = std::count_if(held.begin(), held.end(), [](double n) { return n > 0; });
        if (scored < 2) throw Error("fewer than 2 groups hold positions");
        // A ratio of sums over independent groups: its error by the linearization over groups.
        auto mean = stats::grouped_mean(differences[std::size_t(role)], held);
        auto& result = results[std::size_t(role)];
        result.folds = folds;
        result.difference = mean.value;
        result.error = mean.error;
        for (double n : held) result.positions += n;
    }
    return results;
}

// The positions of an engine above and below eval 0.
std::pair<double, double> positions_by_side(const std::vector<fit::MomData>& moms) {
    double ahead = 0, behind = 0;
    for (const auto& mom : moms)
        for (const auto& cell : mom.cells) {
            if (cell.eval > 0) ahead += cell.total();
            if (cell.eval < 0) behind += cell.total();
        }
    return {ahead, behind};
}

// The strength term and each engine's scales per side, fitted jointly on both engines'
// positions, with the joint jackknife: each replicate refits the model (with its engines'
// symmetric replicates) on the same games left out of both.
void add_strength_and_asymmetry(ScaleComparison& result,
                                const std::array<const fit::GroupedData*, 2>& data,
                                const fit::JointJackknife& jackknife, const ScaleOptions& options) {
    std::array<model::WdlModel, 2> fitted{result.engines[0].fit->model,
                                          result.engines[1].fit->model};
    EngineMoms moms{data[0]->total(), data[1]->total()};
    for (int role = 0; role < 2; ++role) {
        auto& asymmetry = result.asymmetry[std::size_t(role)].emplace();
        std::tie(asymmetry.positions_ahead, asymmetry.positions_behind) =
            positions_by_side(moms[std::size_t(role)]);
        if (asymmetry.positions_ahead == 0 || asymmetry.positions_behind == 0)
            result.no_strength = "no positions on one side";
    }
    auto fail = [&](const std::string& reason) {
        result.no_strength = reason;
        for (auto& asymmetry : result.asymmetry) asymmetry->no_result = reason;
    };
    if (!result.no_strength.empty()) return fail(result.no_strength);
    auto full = fit_strength_model(moms, {&fitted[0], &fitted[1]}, {true, true});
    if (!full.converged) return fail("the strength model did not converge");
    const auto& theta = full.parameters;
    const std::size_t replicates = jackknife.models.size();
    std::vector<StrengthParameters> refits(replicates);
    std::vector<char> converged(replicates, 0);
    util::parallel_for(replicates, options.threads, [&](std::size_t, std::size_t r) {
        auto kept = [&](int group) { return group != jackknife.left_out[r]; };
        EngineMoms kept_moms{data[0]->weighted(weights_of(*data[0], kept)),
                             data[1]->weighted(weights_of(*data[1], kept))};
        auto refit = fit_strength_model(
            kept_moms, {&jackknife.models[r][0], &jackknife.models[r][1]}, {true, true}, theta);
        refits[r] = refit.parameters;
        converged[r] = refit.converged;
    });
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < replicates; ++r)
        if (converged[r]) kept.push_back(r);
    const auto groups = std::size_t(jackknife.groups);
    if (auto refusal = fit::failed_replicates_refusal(
            replicates - kept.size() + jackknife.failures.size(), groups))
        return fail("no intervals of the strength model: " + *refusal);
    auto replicates_of = [&](const std::function<double(std::size_t)>& figure) {
        std::vector<double> values;
        for (std::size_t r : kept) values.push_back(figure(r));
        return values;
    };
    const double confidence = options.confidence;
    Strength strength;
    strength.delta = fit::jackknife_estimate(
        "strength delta", theta[kDelta],
        replicates_of([&](std::size_t r) { return refits[r][kDelta]; }), groups, confidence);
    strength.elo = fit::jackknife_estimate(
        "strength Elo", strength_elo(theta[kDelta], fitted[0], std::exp(theta[kNewSpread])),
        replicates_of([&](std::size_t r) {
            return strength_elo(refits[r][kDelta], jackknife.models[r][0],
                                std::exp(refits[r][kNewSpread]));
        }),
        groups, confidence);
    result.strength = strength;
    for (int role = 0; role < 2; ++role) {
        auto& asymmetry = *result.asymmetry[std::size_t(role)];
        const std::size_t ahead = role == 0 ? kNewAhead : kBaseAhead, behind = ahead + 1;
        auto log_of = [&](std::size_t i) {
            return replicates_of([&](std::size_t r) { return refits[r][i]; });
        };
        asymmetry.ahead =
            ratio_estimate("scale ahead", theta[ahead], log_of(ahead), groups, confidence);
        asymmetry.behind =
            ratio_estimate("scale behind", theta[behind], log_of(behind), groups, confidence);
        asymmetry.ratio = ratio_estimate(
            "scale ahead/behind net of strength", theta[ahead] - theta[behind],
            replicates_of([&](std::size_t r) { return refits[r][ahead] - refits[r][behind]; }),
            groups, confidence);
    }
    int group_count = 0;
    for (const auto* engine : data)
        for (std::size_t g = 0; g < engine->group_count(); ++g)
            group_count = std::max(group_count, engine->file_group(g) + 1);
    try {
        auto held_out = held_out_differences(data, fitted, theta, group_count, options);
        for (int role = 0; role < 2; ++role)
            result.asymmetry[std::size_t(role)]->held_out = held_out[std::size_t(role)];
    } catch (const Error& error) {
        for (auto& asymmetry : result.asymmetry)
            asymmetry->no_result = std::string("no held-out comparison: ") + error.what();
    }
}

}  // namespace

ScaleOptions scale_options_for(const fit::GridFilter& filter, int mom_target,
                               const model::CurveForm& a_form, const model::CurveForm& b_form,
                               const model::Normalization& normalization, double confidence,
                               int threads) {
    ScaleOptions options;
    options.filter = filter;
    options.fit.mom_type = filter.mom_type;
    options.fit.mom_target = mom_target;
    options.fit.pawn_value = normalization.pawn_value();
    options.fit.a_form = a_form;
    options.fit.b_form = b_form;
    options.confidence = confidence;
    options.threads = threads;
    return options;
}

std::unique_ptr<fit::CountGrid> engine_grid(const std::vector<const PairingCounts*>& pairings,
                                            games::Role role, const fit::GridFilter& filter,
                                            const model::Normalization& normalization) {
    auto grid = std::make_unique<fit::CountGrid>(filter, normalization, true);
    for (const PairingCounts* pairing : pairings) {
        const int first = pairing->group_of(role, 0);
        const int end = first + pairing->game_groups;
        pairing->counts.for_each([&](std::uint64_t packed, int group, std::uint64_t count) {
            if (group < first || group >= end) return;
            grid->add_to_group(group - first, counts::unpack_key(packed), std::int64_t(count));
        });
    }
    return grid;
}

namespace {

// Both engines' grids fitted and compared; the data and the joint jackknife are kept for the
// asymmetry, which needs them.
struct GridComparison {
    ScaleComparison result;
    std::array<std::unique_ptr<fit::GroupedData>, 2> data;
    fit::JointJackknife jackknife;
    bool compared = false;
};

GridComparison compare_grids(const std::array<const fit::CountGrid*, 2>& grids,
                             const ScaleOptions& options) {
    GridComparison comparison;
    ScaleComparison& result = comparison.result;
    for (games::Role role : {games::kNew, games::kBase}) {
        comparison.data[role] = std::make_unique<fit::GroupedData>(*grids[role]);
        result.engines[role] = fit_engine(*grids[role], *comparison.data[role], options.fit);
    }
    std::array<EngineFit*, 2> fits{&result.engines[0], &result.engines[1]};
    comparison.compared = fit_jointly(fits, {comparison.data[0].get(), comparison.data[1].get()},
                                      options, comparison.jackknife, result.no_comparison);
    result.groups = comparison.jackknife.groups;
    result.replicates = int(comparison.jackknife.models.size());
    result.failures = comparison.jackknife.failures;
    if (!comparison.compared) return comparison;
    for (std::size_t c = 0; c < model::kHeadlineConstants.size(); ++c) {
        bool ratio = c < 2;  // scales compare by their ratio, the draw rate by difference
        const auto& [constant_name, constant] = model::kHeadlineConstants[c];
        result.figures.push_back(paired_figure(
            std::string(constant_name) + (ratio ? " New/Base" : " New-Base"), constant, ratio,
            result.engines[0].fit->model, result.engines[1].fit->model, comparison.jackknife,
            result.engines[0].estimates[c].standard_error,
            result.engines[1].estimates[c].standard_error, options.confidence));
    }
    if (options.asymmetry)
        add_strength_and_asymmetry(result, {comparison.data[0].get(), comparison.data[1].get()},
                                   comparison.jackknife, options);
    return comparison;
}

}  // namespace

ScaleComparison compare_engine_grids(const fit::CountGrid& new_grid,
                                     const fit::CountGrid& base_grid, const ScaleOptions& options) {
    return compare_grids({&new_grid, &base_grid}, options).result;
}

ScaleComparison compare_scales(const std::string& name,
                               const std::vector<const PairingCounts*>& pairings,
                               const model::Normalization& normalization,
                               const ScaleOptions& options) {
    std::array<std::unique_ptr<fit::CountGrid>, 2> grids;
    for (games::Role role : {games::kNew, games::kBase})
        grids[role] = engine_grid(pairings, role, options.filter, normalization);
    auto comparison = compare_grids({grids[0].get(), grids[1].get()}, options);
    ScaleComparison& result = comparison.result;
    result.name = name;
    for (const PairingCounts* pairing : pairings) {
        result.tests.push_back(
            pairing->test.empty() ? pairing->names[0] + " vs " + pairing->names[1] : pairing->test);
        result.games += pairing->games;
    }
    result.names = pairings.front()->names;
    return std::move(result);
}

}  // namespace wdl::scale
