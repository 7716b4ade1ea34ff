#include "wdl/fit/source_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "held_out_scores.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::fit {

using detail::difference_text;
using detail::grouped_mean_of_scored;
using detail::paired_difference;

namespace {

// The models of one kind for every source, fitted on (training) data of every source.
using SourceFit = std::function<std::vector<model::WdlModel>(
    const std::vector<std::vector<MomData>>& data, const std::vector<model::WdlModel>& start)>;

void check_converged(const std::optional<Minimization>& minimization, const std::string& what) {
    if (minimization && !minimization->converged)
        throw Error(what + " did not converge: " + minimization->message);
}

// The number of groups over every source (a group may hold games of several sources).
int groups_of_sources(const std::vector<const GroupedData*>& sources) {
    int groups = 0;
    for (const GroupedData* data : sources)
        for (std::size_t g = 0; g < data->group_count(); ++g)
            groups = std::max(groups, data->file_group(g) + 1);
    return groups;
}

using NamedSourceFits = std::vector<std::pair<std::string, SourceFit>>;
// [fold][kind][source]
using ModelsByFold = std::vector<std::vector<std::vector<model::WdlModel>>>;

// refits[fold][kind]: each kind's models fitted without the fold's groups, from the full fits.
ModelsByFold refits_by_fold(const std::vector<const GroupedData*>& sources,
                            const NamedSourceFits& kinds,
                            const std::vector<std::vector<model::WdlModel>>& full, int folds,
                            int threads) {
    ModelsByFold refits(static_cast<std::size_t>(folds));
    util::parallel_for(std::size_t(folds), threads, [&](std::size_t, std::size_t fold) {
        std::vector<std::vector<MomData>> training;
        for (const GroupedData* data : sources) {
            std::vector<double> weights(data->group_count(), 1.0);
            for (std::size_t g = 0; g < weights.size(); ++g)
                if (fit::fold_of(std::size_t(data->file_group(g)), folds) == int(fold))
                    weights[g] = 0;
            training.push_back(data->weighted(weights));
        }
        for (std::size_t k = 0; k < kinds.size(); ++k)
            refits[fold].push_back(kinds[k].second(training, full[k]));
    });
    return refits;
}

// Every source's positions scored by each kind's models fitted without their group's fold;
// adds each source's positions to source_positions.
std::vector<detail::Scores> held_out_scores(const std::vector<const GroupedData*>& sources,
                                            const ModelsByFold& refits, std::size_t kinds,
                                            int groups, int folds,
                                            std::vector<double>& source_positions) {
    std::vector<detail::Scores> scores(kinds, detail::Scores(std::size_t(groups)));
    source_positions.assign(sources.size(), 0);
    for (std::size_t s = 0; s < sources.size(); ++s) {
        const GroupedData& data = *sources[s];
        for (std::size_t g = 0; g < data.group_count(); ++g) {
            const std::size_t group = std::size_t(data.file_group(g));
            const auto& models = refits[std::size_t(fit::fold_of(group, folds))];
            for (const KeyCount& entry : data.counts(g)) {
                GridCell cell = data.grid().cell_at(entry.cell);
                counts::PositionKey key = counts::unpack_key(entry.key);
                for (std::size_t k = 0; k < kinds; ++k) {
                    scores[k].add(group,
                                  detail::model_prediction(models[k][s], cell.eval, cell.mom),
                                  int(key.result), double(entry.count), key.material);
                }
                source_positions[s] += double(entry.count);
            }
        }
    }
    return scores;
}

}  // namespace

SourceComparison compare_sources(const std::vector<const GroupedData*>& sources,
                                 const std::vector<std::string>& names, const FitOptions& options,
                                 const counts::Grouping& grouping,
                                 const CrossValidationOptions& validation) {
    if (sources.size() < 2) throw Error("comparing sources needs at least 2 count files.");
    auto objective = method_objective(options.method);
    if (!objective)
        throw Error("comparing sources needs optimizeProbability or optimizeScore fits.");
    int groups = groups_of_sources(sources);
    if (groups < 2) throw Error("comparing sources needs at least 2 groups with positions.");
    SourceComparison comparison;
    comparison.sources = names;
    comparison.folds = std::min(std::max(validation.folds, 2), groups);
    comparison.groups = groups;
    comparison.grouping = grouping;
    const std::size_t count = sources.size();

    // The three kinds, each a way to fit a model per source from every source's data.
    SourceFit pooled = [&](const auto& data, const auto& start) {
        auto moms = pooled_mom_data(data);
        std::vector<model::WdlModel> models;
        if (start.empty()) {
            auto fit = fit_model(moms, options);
            check_converged(fit.minimization, "the pooled fit");
            models.assign(count, fit.model);
        } else {
            auto refit = refit_model(moms, options, start.front());
            check_converged(refit.minimization, "a pooled refit");
            models.assign(count, refit.model);
        }
        return models;
    };
    SourceFit separate = [&](const auto& data, const auto& start) {
        std::vector<model::WdlModel> models;
        for (std::size_t s = 0; s < count; ++s) {
            if (start.empty()) {
                auto fit = fit_model(data[s], options);
                check_converged(fit.minimization, "the fit of " + names[s]);
                models.push_back(fit.model);
            } else {
                auto refit = refit_model(data[s], options, start[s]);
                check_converged(refit.minimization, "a refit of " + names[s]);
                models.push_back(refit.model);
            }
        }
        return models;
    };
    std::vector<std::vector<MomData>> totals;
    for (const GroupedData* data : sources) totals.push_back(data->total());
    auto pooled_models = pooled(totals, {});
    SourceFit shared = [&](const auto& data, const auto& start) {
        auto fit =
            fit_shared_a(*objective, data, start.empty() ? pooled_models : start, !start.empty());
        check_converged(fit.minimization, "the fit with b per source");
        return fit.models;
    };
    NamedSourceFits kinds{
        {"pooled", pooled}, {"b per source", shared}, {"model per source", separate}};

    std::vector<std::vector<model::WdlModel>> full;
    for (const auto& [name, fit] : kinds)
        full.push_back(name == "pooled" ? pooled_models : fit(totals, {}));
    auto refits = refits_by_fold(sources, kinds, full, comparison.folds, validation.threads);
    auto scores = held_out_scores(sources, refits, kinds.size(), groups, comparison.folds,
                                  comparison.source_positions);
    for (double positions : comparison.source_positions) comparison.positions += positions;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        SourceModels kind;
        kind.name = kinds[k].first;
        kind.models = full[k];
        auto log_loss = grouped_mean_of_scored(scores[k].log_loss, scores[k].positions);
        kind.log_loss = log_loss.value;
        kind.log_loss_error = log_loss.error;
        auto minus_pooled = paired_difference(scores[k], scores[0]);
        kind.minus_pooled = minus_pooled.value;
        kind.minus_pooled_error = minus_pooled.error;
        comparison.kinds.push_back(std::move(kind));
    }
    return comparison;
}

std::string source_comparison_report(const SourceComparison& comparison) {
    std::string sources;
    for (std::size_t s = 0; s < comparison.sources.size(); ++s)
        sources += fmt::format("{}{} ({:.0f} positions)", s ? ", " : "", comparison.sources[s],
                               comparison.source_positions[s]);
    std::string text = fmt::format(
        "Sources compared: {}; held out over {} folds of {} {} groups.\n", sources,
        comparison.folds, comparison.groups, counts::group_by_name(comparison.grouping.by));
    text += fmt::format("{:<18}{:>12}{:>26}  {}\n", "models", "log-loss", "minus pooled",
                        "NormalizeToPawnValue / spread per source");
    for (const auto& kind : comparison.kinds) {
        std::string constants;
        for (std::size_t s = 0; s < kind.models.size(); ++s)
            constants += fmt::format("{}{} / {}", s ? ", " : "", kind.models[s].pawn_value(),
                                     kind.models[s].spread());
        text += fmt::format("{:<18}{:>12.6f}{:>26}  {}\n", kind.name, kind.log_loss,
                            difference_text(kind.minus_pooled, kind.minus_pooled_error), constants);
    }
    const auto& by_b = comparison.kinds[1];
    double z = by_b.minus_pooled_error > 0 ? by_b.minus_pooled / by_b.minus_pooled_error : 0;
    text += fmt::format(
        "A b(m) per source against one model for all: {} ({:.1f} standard "
        "errors): {}.\n",
        difference_text(by_b.minus_pooled, by_b.minus_pooled_error), z,
        z <= -2 ? "the sources differ beyond the noise" : "no difference beyond the noise");
    return text;
}

nlohmann::ordered_json source_comparison_json(const SourceComparison& comparison) {
    nlohmann::ordered_json json;
    json["sources"] = comparison.sources;
    json["sourcePositions"] = comparison.source_positions;
    json["folds"] = comparison.folds;
    json["groups"] = comparison.groups;
    auto& kinds = json["models"] = nlohmann::ordered_json::array();
    for (const auto& kind : comparison.kinds) {
        nlohmann::ordered_json entry;
        entry["name"] = kind.name;
        entry["logLoss"] = kind.log_loss;
        entry["logLossError"] = kind.log_loss_error;
        entry["minusPooled"] = kind.minus_pooled;
        entry["minusPooledError"] = kind.minus_pooled_error;
        auto& models = entry["perSource"] = nlohmann::ordered_json::array();
        for (const auto& model : kind.models)
            models.push_back({{"as", model.as},
                              {"bs", model.bs},
                              {"NormalizeToPawnValue", model.pawn_value()},
                              {"spread", model.spread()}});
        kinds.push_back(entry);
    }
    return json;
}

}  // namespace wdl::fit
