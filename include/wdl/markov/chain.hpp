#pragma once

#include <cstdint>
#include <vector>

// Transition matrices over eval classes and the limit of their chains (docs/markov.md).
namespace wdl::markov {

// A square matrix, row-major: at(i, j) is the probability (or count) of going from class i to
// class j.
class Matrix {
  public:
    Matrix() = default;
    explicit Matrix(int size) : size_(size), values_(std::size_t(size) * std::size_t(size)) {}
    static Matrix identity(int size);

    int size() const { return size_; }
    double& at(int i, int j) { return values_[index(i, j)]; }
    double at(int i, int j) const { return values_[index(i, j)]; }
    double row_sum(int i) const;

    friend bool operator==(const Matrix&, const Matrix&) = default;

  private:
    std::size_t index(int i, int j) const { return std::size_t(i) * std::size_t(size_) + j; }
    int size_ = 0;
    std::vector<double> values_;
};

Matrix operator*(const Matrix& a, const Matrix& b);
// Alliot's mirror rule: from a player's own view to the opponent's, M'(i, j) = M(n-1-i,
// n-1-j).
Matrix mirrored(const Matrix& matrix);

// A row-stochastic matrix estimated from transition counts, with how its empty rows were
// filled.
struct TransitionMatrix {
    Matrix probabilities;
    std::vector<int> rows_from_fallback;  // no own moves from the class: the fallback's row
    std::vector<int> rows_kept;           // no moves from the class at all: stays in the class
};

// Each row of `counts` divided by its sum. A row without counts takes the row of `fallback`
// (the moves of both engines from that class), and where that is empty too the class is kept
// (probability 1 of staying: Alliot's oracle, whose eval does not change under best play).
TransitionMatrix estimate_transitions(const Matrix& counts, const Matrix& fallback);

// The long-run distribution of the chain started from `start` (a probability vector): the
// limit of the averages of start * M^t. When the chain has a single closed class this is its
// stationary vector, whatever the start; otherwise it weighs each closed class's stationary
// vector by the chance of ending there from `start`.
std::vector<double> limit_distribution(const Matrix& chain, const std::vector<double>& start);

// The number of closed communicating classes of the chain (1: the stationary vector is
// unique).
int closed_class_count(const Matrix& chain);

}  // namespace wdl::markov
