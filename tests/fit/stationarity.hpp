#pragma once

#include <ceres/jet.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <span>

#include "wdl/fit/objective.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/wdl_math.hpp"

// An independent check that 8 coefficients minimize an objective: the objective is written
// again from docs/model.md (not the fitter's code), differentiated by forward-mode
// automatic differentiation, and its Hessian taken by central differences of that gradient.
namespace wdl::fit::test {

template <typename T>
T stable_logistic(const T& z) {
    using std::exp;
    if (z < T(0.0)) {
        T e = exp(z);
        return e / (1.0 + e);
    }
    return 1.0 / (1.0 + exp(-z));
}

// The objective as the program reports it, at coefficients {as, bs}.
template <typename T>
T reported_objective(Objective objective, std::span<const MomData> moms, int mom_target,
                     const std::array<T, 8>& c) {
    using std::log;
    using std::sqrt;
    T sum(0.0);
    double total = 0;
    for (const MomData& mom : moms) {
        double t = double(mom.mom) / mom_target;
        T a = ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
        T b = ((c[4] * t + c[5]) * t + c[6]) * t + c[7];
        if (b < T(1e-8)) b = T(1e-8);
        for (const Cell& cell : mom.cells) {
            T win = stable_logistic((cell.eval - a) / b);
            T loss = stable_logistic((-cell.eval - a) / b);
            T draw = 1.0 - win - loss;
            if (objective == Objective::Probability) {
                for (auto [count, p] : {std::pair{cell.wins, win}, std::pair{cell.draws, draw},
                                        std::pair{cell.losses, loss}}) {
                    if (count > 0) sum -= count * log(p < T(1e-14) ? T(1e-14) : p);
                }
            } else {
                T score = win + 0.5 * draw;
                sum += cell.wins * (score - 1.0) * (score - 1.0) +
                       cell.draws * (score - 0.5) * (score - 0.5) + cell.losses * score * score;
            }
        }
        total += mom.total;
    }
    T mean = sum / total;
    return objective == Objective::Score ? sqrt(mean) : mean;
}

struct Stationarity {
    double objective = 0;
    Eigen::Matrix<double, 8, 1> gradient;
    bool hessian_positive_definite = false;
    // g' H^-1 g / 2: how much lower the objective is than here, to second order.
    double newton_decrement = 0;
};

inline Eigen::Matrix<double, 8, 1> objective_gradient(Objective objective,
                                                      std::span<const MomData> moms, int mom_target,
                                                      const std::array<double, 8>& coefficients,
                                                      double* value = nullptr) {
    using Dual = ceres::Jet<double, 8>;
    std::array<Dual, 8> c;
    for (int k = 0; k < 8; ++k) c[k] = Dual(coefficients[k], k);
    Dual f = reported_objective(objective, moms, mom_target, c);
    if (value) *value = f.a;
    return f.v;
}

inline Stationarity stationarity(Objective objective, std::span<const MomData> moms, int mom_target,
                                 const model::Coefficients& as, const model::Coefficients& bs) {
    std::array<double, 8> c{as[0], as[1], as[2], as[3], bs[0], bs[1], bs[2], bs[3]};
    Stationarity result;
    result.gradient = objective_gradient(objective, moms, mom_target, c, &result.objective);
    Eigen::Matrix<double, 8, 8> hessian;
    for (int k = 0; k < 8; ++k) {
        double h = 1e-6 * std::max(1.0, std::abs(c[k]));
        auto above = c, below = c;
        above[k] += h;
        below[k] -= h;
        hessian.col(k) = (objective_gradient(objective, moms, mom_target, above) -
                          objective_gradient(objective, moms, mom_target, below)) /
                         (2 * h);
    }
    Eigen::Matrix<double, 8, 8> symmetric = (hessian + hessian.transpose()) / 2;
    Eigen::LLT<Eigen::Matrix<double, 8, 8>> factorization(symmetric);
    result.hessian_positive_definite = factorization.info() == Eigen::Success;
    if (result.hessian_positive_definite) {
        result.newton_decrement = 0.5 * result.gradient.dot(factorization.solve(result.gradient));
    }
    return result;
}

}  // namespace wdl::fit::test
