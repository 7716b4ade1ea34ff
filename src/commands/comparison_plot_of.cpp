#include "comparison_plot_of.hpp"

#include "wdl/model/corresponding_mom.hpp"

namespace wdl::commands {

report::ComparisonPlot comparison_plot_of(const compare::Comparison& comparison) {
    constexpr int kCurvePoints = 200;
    const auto& reference = comparison.models.front().named;
    double low = comparison.rows.empty() ? 0 : comparison.rows.front().mom;
    double high =
        comparison.rows.empty() ? 2.0 * reference.model.mom_target : comparison.rows.back().mom;
    low = reference.model.mom_min.value_or(low);
    high = reference.model.mom_max.value_or(high);
    report::ComparisonPlot plot;
    plot.mom_name = model::mom_type_name(comparison.mom_type);
    plot.target_mom = comparison.target_mom;
    plot.reference_label = comparison.models.front().label;
    for (const auto& summary : comparison.models) {
        const auto& named = summary.named;
        const auto& m = named.model;
        report::ComparedModelCurves curves;
        curves.title = summary.label + ": " + named.name;
        curves.has_band = named.covariance.has_value();
        for (int i = 0; i < kCurvePoints; ++i) {
            double mom = low + (high - low) * i / (kCurvePoints - 1);
            auto own = model::corresponding_mom(reference.model.mom_type, mom, m.mom_type);
            if (!own) {
                curves.moms.clear(), curves.a.clear(), curves.b.clear();
                curves.a_low.clear(), curves.a_high.clear(), curves.display.clear();
                break;
            }
            double a = m.a(*own), error = compare::a_standard_error(named, *own).value_or(0);
            curves.moms.push_back(mom);
            curves.a.push_back(a);
            curves.b.push_back(m.b(*own));
            curves.a_low.push_back(a - error);
            curves.a_high.push_back(a + error);
            curves.display.push_back(reference.model.display_scale(mom) / m.display_scale(*own));
        }
        double target =
            model::corresponding_mom(reference.model.mom_type, comparison.target_mom, m.mom_type)
                .value_or(m.mom_target);
        for (int i = 0; i < kCurvePoints; ++i) {
            double pawns = -4 + 8.0 * i / (kCurvePoints - 1);
            double x = m.from_cp(100 * pawns, target);
            curves.pawns.push_back(pawns);
            curves.win.push_back(m.win(x, target));
            curves.draw.push_back(m.draw(x, target));
            curves.loss.push_back(m.loss(x, target));
        }
        plot.models.push_back(std::move(curves));
    }
    return plot;
}

}  // namespace wdl::commands
