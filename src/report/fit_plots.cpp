#include "wdl/report/fit_plots.hpp"

namespace wdl::report {

SummaryPlot summary_plot_of(const fit::CountGrid& grid, const std::vector<fit::MomData>& moms,
                            const std::optional<fit::FitResult>& fit,
                            const model::Normalization& normalization, int mom_target,
                            const PlotRange& range) {
    SummaryPlot plot;
    plot.mom_name = model::mom_type_name(grid.mom_type());
    plot.pawn_value = normalization.pawn_value();
    plot.mom_plot_min = range.mom_min.value_or(grid.mom_min());
    plot.mom_plot_max = range.mom_max.value_or(grid.mom_max());
    plot.mom_plot_target = range.mom_target.value_or(mom_target);
    for (const auto& mom : moms)
        for (const auto& c : mom.cells)
            plot.cells.push_back({mom.mom, int(c.eval), c.wins, c.draws, c.losses});
    if (!fit) return plot;
    FittedModel fitted;
    fitted.model = fit->model;
    for (const auto& local : fit->local_fits) {
        fitted.local_moms.push_back(local.mom);
        fitted.local_as.push_back(local.a);
        fitted.local_bs.push_back(local.b);
    }
    const auto& dynamic = normalization.dynamic();
    if (dynamic && dynamic->mom_type == grid.mom_type()) fitted.input_normalization = *dynamic;
    plot.model = std::move(fitted);
    return plot;
}

Distribution distribution_of(const fit::CountGrid& grid) {
    Distribution distribution;
    distribution.mom_name = model::mom_type_name(grid.mom_type());
    for (int mom = grid.mom_min(); mom <= grid.mom_max(); ++mom) {
        auto totals = grid.totals_at_mom(mom);
        distribution.moms.push_back(mom);
        distribution.wins.push_back(double(totals.wins));
        distribution.draws.push_back(double(totals.draws));
        distribution.losses.push_back(double(totals.losses));
    }
    return distribution;
}

}  // namespace wdl::report
