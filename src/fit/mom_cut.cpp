#include "wdl/fit/mom_cut.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "held_out_scores.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::fit {

using detail::difference_text;
using detail::grouped_mean_of_scored;
using detail::paired_difference;

namespace {

std::vector<MomData> from_mom(std::vector<MomData> moms, int cut) {
    std::erase_if(moms, [cut](const MomData& mom) { return mom.mom < cut; });
    return moms;
}

CutRegion cut_region(const detail::Scores& clamped, const detail::Scores& extended) {
    CutRegion region;
    for (double positions : clamped.positions) region.positions += positions;
    if (region.positions == 0) return region;
    region.clamped_log_loss = grouped_mean_of_scored(clamped.log_loss, clamped.positions).value;
    region.extended_log_loss = grouped_mean_of_scored(extended.log_loss, extended.positions).value;
    auto difference = paired_difference(extended, clamped);
    region.difference = difference.value;
    region.difference_error = difference.error;
    return region;
}

}  // namespace

MomCutComparison compare_mom_cut(const GroupedData& data, const FitOptions& options, int cut,
                                 const counts::Grouping& grouping,
                                 const CrossValidationOptions& validation) {
    const std::size_t groups = data.group_count();
    const auto& total = data.total();
    if (total.empty() || total.front().mom >= cut) {
        throw Error(
            fmt::format("the cut at {} needs data below it: lower the --materialMin (or "
                        "--moveMin) below {}.",
                        cut, cut));
    }
    if (groups < 2)
        throw Error("the cut's comparison needs at least 2 groups with retained positions.");
    MomCutComparison comparison;
    comparison.cut = cut;
    comparison.lowest_mom = total.front().mom;
    comparison.folds =
        int(std::min<std::size_t>(std::size_t(std::max(validation.folds, 2)), groups));
    comparison.groups = int(groups);
    comparison.grouping = grouping;
    auto clamped = fit_model(from_mom(total, cut), options);
    auto extended = fit_model(total, options);
    for (const auto* fit : {&clamped, &extended})
        if (fit->minimization && !fit->minimization->converged)
            throw Error("a fit of the cut's comparison did not converge: " +
                        fit->minimization->message);

    std::vector<Refit> clamped_refits(std::size_t(comparison.folds)),
        extended_refits(std::size_t(comparison.folds));
    util::parallel_for(
        std::size_t(comparison.folds), validation.threads, [&](std::size_t, std::size_t fold) {
            std::vector<double> weights(groups, 1.0);
            for (std::size_t g = 0; g < groups; ++g)
                if (fit::fold_of(g, comparison.folds) == int(fold)) weights[g] = 0;
            auto training = data.weighted(weights);
            clamped_refits[fold] = refit_model(from_mom(training, cut), options, clamped.model);
            extended_refits[fold] = refit_model(training, options, extended.model);
        });
    detail::Scores below_clamped(groups), below_extended(groups), above_clamped(groups),
        above_extended(groups);
    for (int fold = 0; fold < comparison.folds; ++fold) {
        const auto& c = clamped_refits[std::size_t(fold)];
        const auto& e = extended_refits[std::size_t(fold)];
        for (const auto* refit : {&c, &e})
            if (!refit->minimization.converged)
                throw Error(fmt::format("fold {} of the cut's comparison: {}", fold + 1,
                                        refit->minimization.message));
        for (std::size_t g = 0; g < groups; ++g) {
            if (fit::fold_of(g, comparison.folds) != fold) continue;
            for (const KeyCount& entry : data.counts(g)) {
                GridCell cell = data.grid().cell_at(entry.cell);
                counts::PositionKey key = counts::unpack_key(entry.key);
                bool below = cell.mom < cut;
                int outcome = int(key.result);
                double count = double(entry.count);
                (below ? below_clamped : above_clamped)
                    .add(g, detail::model_prediction(c.model, cell.eval, cell.mom), outcome, count,
                         key.material);
                (below ? below_extended : above_extended)
                    .add(g, detail::model_prediction(e.model, cell.eval, cell.mom), outcome, count,
                         key.material);
            }
        }
    }
    comparison.below = cut_region(below_clamped, below_extended);
    comparison.above = cut_region(above_clamped, above_extended);
    return comparison;
}

std::string mom_cut_report(const MomCutComparison& comparison, std::string_view mom_name) {
    std::string text = fmt::format(
        "The cut at {0} {1}: the model fitted on {1} {2} and up, clamped below {2} as Stockfish "
        "evaluates it, against the same form fitted down to {1} {3}; held out over {4} folds of "
        "{5} {6} groups.\n",
        comparison.cut, mom_name, comparison.cut, comparison.lowest_mom, comparison.folds,
        comparison.groups, counts::group_by_name(comparison.grouping.by));
    text += fmt::format("{:<14}{:>12}{:>14}{:>14}{:>28}\n", "positions", "held out", "clamped",
                        "fitted down", "fitted down - clamped");
    for (auto [label, region] :
         {std::pair{fmt::format("below {}", comparison.cut), comparison.below},
          std::pair{fmt::format("from {}", comparison.cut), comparison.above}})
        text += fmt::format("{:<14}{:>12.0f}{:>14.6f}{:>14.6f}{:>28}\n", label, region.positions,
                            region.clamped_log_loss, region.extended_log_loss,
                            difference_text(region.difference, region.difference_error));
    return text;
}

nlohmann::ordered_json mom_cut_json(const MomCutComparison& comparison) {
    auto region_json = [](const CutRegion& region) {
        return nlohmann::ordered_json{{"positions", region.positions},
                                      {"clampedLogLoss", region.clamped_log_loss},
                                      {"fittedDownLogLoss", region.extended_log_loss},
                                      {"difference", region.difference},
                                      {"differenceError", region.difference_error}};
    };
    return {{"cut", comparison.cut},
            {"lowestMom", comparison.lowest_mom},
            {"folds", comparison.folds},
            {"groups", comparison.groups},
            {"below", region_json(comparison.below)},
            {"from", region_json(comparison.above)}};
}

}  // namespace wdl::fit
