#include "wdl/competence/model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wdl::competence {

using tablebase::Outcome;

PreferenceFunction::PreferenceFunction(double kappa, int n1, int n2)
    : kappa_(kappa), n1_(n1), n2_(n2) {
    if (!(kappa > 0)) throw std::invalid_argument("kappa must be positive");
}

double PreferenceFunction::exponent(Outcome outcome, int winner_depth) const {
    switch (outcome) {
        case Outcome::Win:
            return -std::log(winner_depth + kappa_);
        case Outcome::Draw:
            return -std::log(n1_ + kappa_);
        case Outcome::Loss:
            // lambda = (n1 + kappa)^-c (n2 + kappa)^-c makes S(loss, n2) = S(draw).
            return std::log(winner_depth + kappa_) - std::log(n1_ + kappa_) -
                   std::log(n2_ + kappa_);
    }
    return 0;
}

CompetenceGrid::CompetenceGrid(double min, double max, double step) : min_(min), step_(step) {
    if (!(step > 0) || !(max >= min) || !std::isfinite(min) || !std::isfinite(max))
        throw std::invalid_argument("the c grid needs step > 0 and max >= min");
    double points = std::floor((max - min) / step + 1e-9) + 1;
    if (points > 100001) throw std::invalid_argument("the c grid has more than 100001 points");
    size_ = std::size_t(points);
}

void add_decision(const std::vector<double>& exponents, std::size_t played,
                  const CompetenceGrid& grid, std::vector<double>& log_likelihood) {
    if (log_likelihood.empty()) log_likelihood.assign(grid.size(), 0.0);
    for (std::size_t i = 0; i < grid.size(); ++i) {
        double c = grid.at(i);
        double largest = -INFINITY;
        for (double e : exponents) largest = std::max(largest, c * e);
        double sum = 0;
        for (double e : exponents) sum += std::exp(c * e - largest);
        log_likelihood[i] += c * exponents[played] - largest - std::log(sum);
    }
}

std::vector<double> choice_probabilities(const std::vector<double>& exponents, double c) {
    double largest = -INFINITY;
    for (double e : exponents) largest = std::max(largest, c * e);
    std::vector<double> probabilities;
    double sum = 0;
    for (double e : exponents) sum += probabilities.emplace_back(std::exp(c * e - largest));
    for (double& p : probabilities) p /= sum;
    return probabilities;
}

}  // namespace wdl::competence
