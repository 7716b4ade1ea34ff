#include "wdl/annotate/symbols.hpp"

#include <cmath>
#include <limits>

namespace wdl::annotate {

std::string_view position_scheme_name(PositionScheme scheme) {
    return util::name_of(kPositionSchemeNames, scheme);
}

std::optional<PositionScheme> position_scheme_from_name(std::string_view name) {
    return util::value_named(kPositionSchemeNames, name);
}

std::array<double, 4> position_bounds(PositionScheme scheme) {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    switch (scheme) {
        case PositionScheme::Konrod9:
            return {0.55, 0.65, 0.75, 0.875};
        case PositionScheme::Equal9:
            return {5.0 / 9, 6.0 / 9, 7.0 / 9, 8.0 / 9};
        case PositionScheme::Seven:
            return {4.0 / 7, 5.0 / 7, 6.0 / 7, kNever};
    }
    return {};
}

int bound_count(PositionScheme scheme) { return scheme == PositionScheme::Seven ? 3 : 4; }

int position_nag(double white_score, PositionScheme scheme) {
    auto bounds = position_bounds(scheme);
    // White's advantage by its own score, Black's by the mirrored one.
    double leader_score = std::max(white_score, 1 - white_score);
    int range = 0;
    while (range < bound_count(scheme) && leader_score >= bounds[std::size_t(range)]) ++range;
    if (range == 0) return 10;
    bool white_leads = white_score > 0.5;
    return 12 + 2 * range + (white_leads ? 0 : 1);  // 14/15, 16/17, 18/19, 20/21
}

MoveThresholds relevance_thresholds() { return {1.0 / 14, 3.0 / 14, 5.0 / 14}; }

int move_nag(double drop, const MoveThresholds& thresholds) {
    if (drop >= thresholds.blunder) return 4;
    if (drop >= thresholds.mistake) return 2;
    if (drop >= thresholds.dubious) return 6;
    return 0;
}

int good_move_nag(double gain, const MoveThresholds& thresholds) {
    if (gain >= thresholds.blunder) return 3;
    if (gain >= thresholds.mistake) return 1;
    if (gain >= thresholds.dubious) return 5;
    return 0;
}

std::string_view nag_symbol(int nag) {
    switch (nag) {
        case 1:
            return "!";
        case 2:
            return "?";
        case 3:
            return "!!";
        case 4:
            return "??";
        case 5:
            return "!?";
        case 6:
            return "?!";
        case 10:
            return "=";
        case 14:
            return "+/=";
        case 15:
            return "=/+";
        case 16:
            return "+/-";
        case 17:
            return "-/+";
        case 18:
            return "+-";
        case 19:
            return "-+";
        case 20:
            return "++-";
        case 21:
            return "--+";
    }
    return "";
}

}  // namespace wdl::annotate
