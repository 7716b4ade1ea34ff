#include <catch2/catch.hpp>

#include "wdl/markov/chain.hpp"

using namespace wdl::markov;

namespace {

Matrix matrix_of(std::initializer_list<std::initializer_list<double>> rows) {
    Matrix matrix(int(rows.size()));
    int i = 0;
    for (const auto& row : rows) {
        int j = 0;
        for (double value : row) matrix.at(i, j++) = value;
        ++i;
    }
    return matrix;
}

void check_row_stochastic(const Matrix& matrix) {
    for (int i = 0; i < matrix.size(); ++i) {
        CHECK(matrix.row_sum(i) == Approx(1).margin(1e-12));
        for (int j = 0; j < matrix.size(); ++j) CHECK(matrix.at(i, j) >= 0);
    }
}

}  // namespace

TEST_CASE("a two-state chain has the stationary vector (b a) over (a + b)", "[markov][chain]") {
    double a = 0.3, b = 0.1;
    auto chain = matrix_of({{1 - a, a}, {b, 1 - b}});
    for (auto start : {std::vector<double>{1, 0}, std::vector<double>{0, 1}}) {
        auto limit = limit_distribution(chain, start);
        CHECK(limit[0] == Approx(b / (a + b)).epsilon(1e-12));
        CHECK(limit[1] == Approx(a / (a + b)).epsilon(1e-12));
    }
    CHECK(closed_class_count(chain) == 1);
}

TEST_CASE("a birth-death chain's limit follows detailed balance", "[markov][chain]") {
    // pi_{i+1} / pi_i = up_i / down_{i+1}: pi proportional to 1, 2, 2 * 0.5 / 0.25 = 4.
    auto chain = matrix_of({{0.6, 0.4, 0}, {0.2, 0.3, 0.5}, {0, 0.25, 0.75}});
    auto limit = limit_distribution(chain, {0, 0, 1});
    CHECK(limit[0] == Approx(1.0 / 7).epsilon(1e-12));
    CHECK(limit[1] == Approx(2.0 / 7).epsilon(1e-12));
    CHECK(limit[2] == Approx(4.0 / 7).epsilon(1e-12));
}

TEST_CASE("a periodic chain's limit is the average over its period", "[markov][chain]") {
    auto chain = matrix_of({{0, 1}, {1, 0}});
    auto limit = limit_distribution(chain, {1, 0});
    CHECK(limit[0] == Approx(0.5));
    CHECK(limit[1] == Approx(0.5));
}

TEST_CASE("an absorbing chain ends in each closed class with its absorption probability",
          "[markov][chain]") {
    // A fair walk on 0..3 absorbed at both ends: from 1, 0 is reached with probability 2/3.
    auto chain = matrix_of({{1, 0, 0, 0}, {0.5, 0, 0.5, 0}, {0, 0.5, 0, 0.5}, {0, 0, 0, 1}});
    auto limit = limit_distribution(chain, {0, 1, 0, 0});
    CHECK(limit[0] == Approx(2.0 / 3).epsilon(1e-12));
    CHECK(limit[1] == Approx(0).margin(1e-12));
    CHECK(limit[3] == Approx(1.0 / 3).epsilon(1e-12));
    CHECK(closed_class_count(chain) == 2);
}

TEST_CASE("estimated matrices are row-stochastic and empty rows borrow or keep the class",
          "[markov][chain]") {
    auto counts = matrix_of({{2, 1, 1}, {0, 0, 0}, {0, 0, 0}});
    auto fallback = matrix_of({{4, 1, 1}, {1, 3, 0}, {0, 0, 0}});
    auto estimate = estimate_transitions(counts, fallback);
    check_row_stochastic(estimate.probabilities);
    CHECK(estimate.probabilities.at(0, 0) == Approx(0.5));
    CHECK(estimate.probabilities.at(1, 1) == Approx(0.75));
    CHECK(estimate.probabilities.at(2, 2) == 1);
    CHECK(estimate.rows_from_fallback == std::vector<int>{1});
    CHECK(estimate.rows_kept == std::vector<int>{2});
}

TEST_CASE("the mirror rule reverses both indices and products stay row-stochastic",
          "[markov][chain]") {
    auto a = matrix_of({{0.5, 0.5, 0}, {0.1, 0.8, 0.1}, {0, 0.2, 0.8}});
    auto b = matrix_of({{0.9, 0.1, 0}, {0.3, 0.3, 0.4}, {0, 0, 1}});
    auto mirror = mirrored(a);
    CHECK(mirror.at(0, 0) == a.at(2, 2));
    CHECK(mirror.at(0, 1) == a.at(2, 1));
    CHECK(mirrored(mirror) == a);
    check_row_stochastic(a * mirrored(b));
}
