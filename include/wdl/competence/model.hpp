#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "wdl/tablebase/table.hpp"

namespace wdl::competence {

// The preference function of the reference endgame player R_c (Haworth & Andrist, "Model
// endgame analysis"):
//   S_c(win, d)  = (d + kappa)^-c
//   S_c(loss, d) = lambda (d + kappa)^c
//   S_c(draw)    = S_c(win, n1) = S_c(loss, n2)
// where d is the depth of the position after the move, in the winner's moves still needed.
// Every S_c is exp(c * e) for an exponent e that depends only on the move's value, so a
// decision's likelihood is a function of these exponents.
class PreferenceFunction {
  public:
    // n1 and n2 must exceed every win and loss depth of the endgame (see draw_horizon).
    PreferenceFunction(double kappa, int n1, int n2);

    // log S_c / c for a move whose value for the mover is `value` (depth in winner's moves
    // after the move: value.plies is not used, winner_depth is).
    double exponent(tablebase::Outcome outcome, int winner_depth) const;

    double kappa() const { return kappa_; }
    int n1() const { return n1_; }
    int n2() const { return n2_; }

  private:
    double kappa_;
    int n1_, n2_;
};

// The grid of competence values c = min, min + step, ..., max.
class CompetenceGrid {
  public:
    // Throws std::invalid_argument unless step > 0, max >= min and the grid has at most 100001
    // points.
    CompetenceGrid(double min, double max, double step);
    std::size_t size() const { return size_; }
    double at(std::size_t i) const { return min_ + double(i) * step_; }
    double min() const { return min_; }
    double max() const { return at(size_ - 1); }
    double step() const { return step_; }
    friend bool operator==(const CompetenceGrid&, const CompetenceGrid&) = default;

  private:
    double min_, step_;
    std::size_t size_;
};

// Adds the log-likelihood of one decision, log P(played | c) for every c of the grid, to
// `log_likelihood` (resized to the grid if empty). exponents[i] is the exponent of move i.
void add_decision(const std::vector<double>& exponents, std::size_t played,
                  const CompetenceGrid& grid, std::vector<double>& log_likelihood);

// R_c's move probabilities: proportional to exp(c * exponent).
std::vector<double> choice_probabilities(const std::vector<double>& exponents, double c);

}  // namespace wdl::competence
