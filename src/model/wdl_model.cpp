#include "wdl/model/wdl_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wdl::model {

std::string_view mom_type_name(MomType type) { return util::name_of(kMomTypeNames, type); }

std::optional<MomType> mom_type_from_name(std::string_view name) {
    return util::value_named(kMomTypeNames, name);
}

double WdlModel::clamped(double mom) const {
    if (mom_min && mom < *mom_min) return *mom_min;
    if (mom_max && mom > *mom_max) return *mom_max;
    return mom;
}

double WdlModel::curve_input(double eval) const {
    if (!display.eval_limit) return eval;
    double limit = eval_scale * *display.eval_limit;
    return std::clamp(eval, -limit, limit);
}

long WdlModel::printed_cp(long v, double mom) const {
    if (display.pawn_divisor) return 100 * v / *display.pawn_divisor;
    return std::lround(100 * double(v) / a(mom));
}

void use_pawn_value_eg(WdlModel& model, int pawn_value_eg) {
    model.eval_scale = pawn_value_eg / 100.0;
    model.display.pawn_divisor = pawn_value_eg;
}

double WdlModel::draw_rate_at_zero() const {
    // The original's closed form from the sums, which keeps its printed digits.
    return 1 - 2 / (1 + std::exp(a_at_target() / b_at_target()));
}

std::string curve_text(CurveForm form, const Coefficients& c, int mom_target) {
    // Horner's rule written out, highest power first: the original's text for the cubic.
    std::string text = fmt::format("{:5.3f}", c[0]);
    for (int k = 1; k <= form.degree; ++k) {
        if (k > 1) text = "(" + text + ")";
        text += fmt::format(" * x / {} + {:5.3f}", mom_target, c[std::size_t(k)]);
    }
    if (form.kind == CurveKind::Rational) {
        text = fmt::format("({}) / (1 + {:5.3f} * x / {})", text, c[std::size_t(form.degree + 1)],
                           mom_target);
    }
    return text;
}

}  // namespace wdl::model
