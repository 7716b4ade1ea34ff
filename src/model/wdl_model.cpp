#include "wdl/model/wdl_model.hpp"

#include <fmt/format.h>

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

double WdlModel::draw_rate_at_zero() const {
    // The original's closed form from the sums, which keeps its printed digits.
    return 1 - 2 / (1 + std::exp(coefficient_sum(as) / coefficient_sum(bs)));
}

std::string polynomial_text(const Poly3& c, int mom_target) {
    return fmt::format("(({:5.3f} * x / {} + {:5.3f}) * x / {} + {:5.3f}) * x / {} + {:5.3f}", c[0],
                       mom_target, c[1], mom_target, c[2], mom_target, c[3]);
}

}  // namespace wdl::model
