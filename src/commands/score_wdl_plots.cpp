#include "score_wdl_plots.hpp"

namespace wdl::commands {

report::SummaryPlot summary_plot_of(const fit::CountGrid& grid,
                                    const std::vector<fit::MomData>& moms,
                                    const std::optional<fit::FitResult>& fit,
                                    const model::Normalization& normalization, int mom_target,
                                    const PlotRange& range) {
    report::SummaryPlot plot;
    plot.mom_name = model::mom_type_name(grid.mom_type());
    plot.pawn_value = normalization.pawn_value();
    plot.mom_plot_min = range.mom_min.value_or(grid.mom_min());
    plot.mom_plot_max = range.mom_max.value_or(grid.mom_max());
    plot.mom_plot_target = range.mom_target.value_or(mom_target);
    for (const auto& mom : moms)
        for (const auto& c : mom.cells)
            plot.cells.push_back({mom.mom, int(c.eval), c.wins, c.draws, c.losses});
    if (!fit) return plot;
    report::FittedModel fitted;
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

report::Distribution distribution_of(const fit::CountGrid& grid) {
    report::Distribution distribution;
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

report::CalibrationPlot calibration_plot_of(const fit::CrossValidation& validation) {
    report::CalibrationPlot plot;
    for (const auto& model : validation.models) {
        report::CalibrationCurve win{model.description, {}, {}}, draw{model.description, {}, {}};
        for (const auto& bin : model.by_predicted_win) {
            win.predicted.push_back(bin.predicted[0]);
            win.observed.push_back(bin.observed[0]);
        }
        for (const auto& bin : model.by_material) {
            draw.predicted.push_back(bin.predicted[1]);
            draw.observed.push_back(bin.observed[1]);
        }
        plot.win_by_predicted_win.push_back(std::move(win));
        plot.draw_by_material.push_back(std::move(draw));
    }
    // Labels "24-31": the bucket's centre.
    for (const auto& bin : validation.models.front().by_material) {
        int low = std::stoi(bin.label), high = std::stoi(bin.label.substr(bin.label.find('-') + 1));
        plot.materials.push_back((low + high) / 2.0);
    }
    return plot;
}

}  // namespace wdl::commands
