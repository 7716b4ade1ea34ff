#include "wdl/markov/chain.hpp"

#include <algorithm>
#include <cmath>

namespace wdl::markov {

Matrix Matrix::identity(int size) {
    Matrix matrix(size);
    for (int i = 0; i < size; ++i) matrix.at(i, i) = 1;
    return matrix;
}

double Matrix::row_sum(int i) const {
    double sum = 0;
    for (int j = 0; j < size_; ++j) sum += at(i, j);
    return sum;
}

Matrix operator*(const Matrix& a, const Matrix& b) {
    Matrix product(a.size());
    for (int i = 0; i < a.size(); ++i)
        for (int k = 0; k < a.size(); ++k) {
            double left = a.at(i, k);
            if (left == 0) continue;
            for (int j = 0; j < a.size(); ++j) product.at(i, j) += left * b.at(k, j);
        }
    return product;
}

Matrix mirrored(const Matrix& matrix) {
    int n = matrix.size();
    Matrix result(n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) result.at(i, j) = matrix.at(n - 1 - i, n - 1 - j);
    return result;
}

TransitionMatrix estimate_transitions(const Matrix& counts, const Matrix& fallback) {
    int n = counts.size();
    TransitionMatrix result{Matrix(n), {}, {}};
    for (int i = 0; i < n; ++i) {
        const Matrix* source = &counts;
        if (counts.row_sum(i) == 0) {
            source = &fallback;
            if (fallback.row_sum(i) == 0) {
                result.rows_kept.push_back(i);
                result.probabilities.at(i, i) = 1;
                continue;
            }
            result.rows_from_fallback.push_back(i);
        }
        double sum = source->row_sum(i);
        for (int j = 0; j < n; ++j) result.probabilities.at(i, j) = source->at(i, j) / sum;
    }
    return result;
}

std::vector<double> limit_distribution(const Matrix& chain, const std::vector<double>& start) {
    // The lazy chain (I + M) / 2 has the same closed classes and limits as M's averages but no
    // period, so its powers converge; squaring reaches the power 2^64 in 64 products.
    int n = chain.size();
    Matrix power(n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) power.at(i, j) = (chain.at(i, j) + (i == j ? 1 : 0)) / 2;
    for (int step = 0; step < 64; ++step) {
        Matrix next = power * power;
        // Rounding must not let the rows drift from 1 over many products.
        for (int i = 0; i < n; ++i) {
            double sum = next.row_sum(i);
            for (int j = 0; j < n; ++j) next.at(i, j) /= sum;
        }
        double change = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                change = std::max(change, std::abs(next.at(i, j) - power.at(i, j)));
        power = std::move(next);
        if (change < 1e-15) break;
    }
    std::vector<double> limit(std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) limit[std::size_t(j)] += start[std::size_t(i)] * power.at(i, j);
    return limit;
}

int closed_class_count(const Matrix& chain) {
    int n = chain.size();
    // reaches(i, j): j can be reached from i (Warshall's closure of the transitions).
    std::vector<char> reach(std::size_t(n) * std::size_t(n), 0);
    auto reaches = [&](int i, int j) -> char& { return reach[std::size_t(i * n + j)]; };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) reaches(i, j) = i == j || chain.at(i, j) > 0;
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i)
            if (reaches(i, k))
                for (int j = 0; j < n; ++j)
                    if (reaches(k, j)) reaches(i, j) = 1;
    // A class is closed when everything it reaches reaches it back; count each by its
    // smallest member.
    int closed = 0;
    for (int i = 0; i < n; ++i) {
        bool is_closed = true, smallest = true;
        for (int j = 0; j < n; ++j) {
            if (reaches(i, j) && !reaches(j, i)) is_closed = false;
            if (reaches(i, j) && reaches(j, i) && j < i) smallest = false;
        }
        closed += is_closed && smallest;
    }
    return closed;
}

}  // namespace wdl::markov
