#include "wdl/markov/eval_classes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "wdl/games/eval_parsing.hpp"
#include "wdl/util/error.hpp"

namespace wdl::markov {
namespace {

constexpr int kTableOffset = games::kMateScore;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

int class_count(std::size_t bounds, Centre centre) {
    int per_side = int(bounds) + 1;
    switch (centre) {
        case Centre::Split:
            return 2 * per_side;
        case Centre::ZeroClass:
            return 2 * per_side + 1;
        case Centre::Band:
            return 2 * per_side - 1;
    }
    return 0;
}

std::string pawns(double centipawns) { return fmt::format("{:.2f}", centipawns / 100); }

// The displayed eval (cp) at which the model's expected score at its target mom reaches
// `score` > 1/2, by bisection.
double eval_at_score(const model::WdlModel& model, double score) {
    double mom = model.mom_target;
    auto score_at = [&](double cp) { return model.score(model.from_cp(cp, mom), mom); };
    double low = 0, high = games::kMaxScore;
    if (score_at(high) < score) return kInfinity;
    for (int i = 0; i < 100; ++i) {
        double middle = (low + high) / 2;
        (score_at(middle) < score ? low : high) = middle;
    }
    return (low + high) / 2;
}

}  // namespace

std::vector<double> log19_bounds() {
    const double tail = std::exp(-200.0 / 100);
    std::vector<double> bounds;
    for (int i = 1; i <= 8; ++i) {
        double f = 1 - i / 8.0;
        bounds.push_back(i == 8 ? 200.0 : -100 * std::log(tail + (1 - tail) * f));
    }
    return bounds;
}

ClassScheme::ClassScheme(std::string name, std::string description,
                         std::vector<double> positive_bounds, Centre centre)
    : name_(std::move(name)),
      description_(std::move(description)),
      bounds_(std::move(positive_bounds)),
      centre_(centre) {
    if (bounds_.empty()) throw Error("eval classes need at least one bound");
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
        bool increasing = i == 0 ? bounds_[i] > 0 : bounds_[i] > bounds_[i - 1];
        if (!std::isfinite(bounds_[i]) || !increasing || bounds_[i] > games::kMaxScore)
            throw Error("eval class bounds must be positive, increasing and at most 10 pawns");
    }
    size_ = class_count(bounds_.size(), centre_);
    // class_of runs for every evaluated move: a table over every eval the scanner yields.
    for (int cp = -kTableOffset; cp <= kTableOffset; ++cp) {
        double magnitude = std::abs(cp);
        int step = int(std::lower_bound(bounds_.begin(), bounds_.end(), magnitude) -
                       bounds_.begin());  // bounds below |cp|: (b_step, b_step+1] holds it
        int index = 0;
        switch (centre_) {
            case Centre::Split:
                index = cp >= 0 ? size_ / 2 + step : size_ / 2 - 1 - step;
                break;
            case Centre::ZeroClass:
                index = cp == 0 ? size_ / 2 : cp > 0 ? size_ / 2 + 1 + step : size_ / 2 - 1 - step;
                break;
            case Centre::Band:
                index = cp >= 0 ? size_ / 2 + step : size_ / 2 - step;
                break;
        }
        class_by_centipawn_.push_back(index);
    }
    // Limits: the classes above the middle from the bounds, those below by the mirror.
    lower_.assign(std::size_t(size_), 0);
    upper_.assign(std::size_t(size_), 0);
    int middle = size_ / 2;
    int first_step = middle;  // the class (0, b1] (or [0, b1] when 0 has no class of its own)
    if (centre_ == Centre::ZeroClass) first_step = middle + 1;
    if (centre_ == Centre::Band) {
        upper_[std::size_t(middle)] = bounds_[0];
        first_step = middle;
    }
    for (int index = first_step; index < size_; ++index) {
        std::size_t step = std::size_t(index - first_step);
        if (centre_ != Centre::Band || index > middle)
            lower_[std::size_t(index)] = step == 0 ? 0 : bounds_[step - 1];
        upper_[std::size_t(index)] = step < bounds_.size() ? bounds_[step] : kInfinity;
    }
    for (int index = 0; index < size_; ++index) {
        if (index < middle || (centre_ == Centre::Band && index == middle)) {
            // 0.0 - x, not -x: the bound 0 stays +0 and prints as "0.00".
            lower_[std::size_t(index)] = 0.0 - upper_[std::size_t(mirror(index))];
            if (index < middle)
                upper_[std::size_t(index)] = 0.0 - lower_[std::size_t(mirror(index))];
        }
    }
}

ClassScheme ClassScheme::linear10() {
    return ClassScheme("linear10",
                       "10 classes of 0.4 pawns, extremes beyond +-1.60 (Alliot's section 3.4)",
                       {40, 80, 120, 160}, Centre::Split);
}

ClassScheme ClassScheme::log19() {
    return ClassScheme("log19",
                       "19 classes: exact 0, 8 log-spaced per side, extremes beyond +-2.00 "
                       "(Alliot's section 4.4.1)",
                       log19_bounds(), Centre::ZeroClass);
}

ClassScheme ClassScheme::equal_score(const model::WdlModel& model, const std::string& model_name,
                                     int classes) {
    if (classes < 3) throw Error("model-aware eval classes need at least 3 classes");
    std::vector<double> bounds;
    // Scores above 1/2 only: the scheme is symmetric.
    for (int i = classes / 2 + 1; i < classes; ++i) {
        double bound = eval_at_score(model, double(i) / classes);
        if (!std::isfinite(bound))
            throw Error(fmt::format(
                "model {} never gives an expected score of {}/{} within 10 pawns: use fewer "
                "classes",
                model_name, i, classes));
        bounds.push_back(bound);
    }
    return ClassScheme(
        "model",
        fmt::format("{} classes at equal steps of expected score under {}", classes, model_name),
        bounds, classes % 2 == 0 ? Centre::Split : Centre::Band);
}

ClassScheme ClassScheme::custom(const std::vector<double>& pawns_bounds) {
    std::vector<double> bounds;
    bool zero_class = !pawns_bounds.empty() && pawns_bounds.front() == 0;
    for (std::size_t i = zero_class ? 1 : 0; i < pawns_bounds.size(); ++i)
        bounds.push_back(pawns_bounds[i] * 100);
    std::string listed;
    for (double b : pawns_bounds) listed += fmt::format("{}{}", listed.empty() ? "" : ",", b);
    return ClassScheme("custom", fmt::format("bounds {} pawns, mirrored below 0", listed), bounds,
                       zero_class ? Centre::ZeroClass : Centre::Split);
}

int ClassScheme::class_of(int centipawns) const {
    int clamped = std::clamp(centipawns, -kTableOffset, kTableOffset);
    return class_by_centipawn_[std::size_t(clamped + kTableOffset)];
}

std::string ClassScheme::label(int index) const {
    double low = lower(index), high = upper(index);
    if (low == high) return pawns(low);
    if (!std::isfinite(low)) return fmt::format("<{}", pawns(high));
    if (!std::isfinite(high)) return fmt::format(">{}", pawns(low));
    return fmt::format("{}..{}", pawns(low), pawns(high));
}

}  // namespace wdl::markov
