#include "wdl/model/corresponding_mom.hpp"

#include <cmath>

namespace wdl::model {

std::optional<double> corresponding_mom(MomType reference, double mom, MomType other) {
    if (reference == other) return mom;
    if (reference == MomType::Move && other == MomType::Ply) return 2 * (mom - 1);
    if (reference == MomType::Ply && other == MomType::Move) return std::floor(mom / 2) + 1;
    return std::nullopt;
}

std::optional<double> displayed_by(const WdlModel& from, double mom, double pawns,
                                   const WdlModel& to) {
    auto own = corresponding_mom(from.mom_type, mom, to.mom_type);
    if (!own) return std::nullopt;
    return pawns * from.display_scale(mom) / to.display_scale(*own);
}

}  // namespace wdl::model
