#include "wdl/fit/fitter.hpp"

#include <ceres/ceres.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace wdl::fit {

std::string_view method_name(Method method) {
    switch (method) {
        case Method::FitDensity:
            return "fitDensity";
        case Method::OptimizeProbability:
            return "optimizeProbability";
        case Method::OptimizeScore:
            return "optimizeScore";
        case Method::None:
            return "None";
    }
    return "";
}

std::optional<Method> method_from_name(std::string_view name) {
    for (Method method :
         {Method::FitDensity, Method::OptimizeProbability, Method::OptimizeScore, Method::None}) {
        if (method_name(method) == name) return method;
    }
    return std::nullopt;
}

std::optional<Objective> method_objective(Method method) {
    if (method == Method::OptimizeProbability) return Objective::Probability;
    if (method == Method::OptimizeScore) return Objective::Score;
    return std::nullopt;
}

namespace {

// Residual win_rate(x; a, b) - observed win density, parameters {a, b}.
class WinDensityResidual final : public ceres::SizedCostFunction<1, 2> {
  public:
    WinDensityResidual(double eval, double density) : eval_(eval), density_(density) {}

    bool Evaluate(double const* const* parameters, double* residuals,
                  double** jacobians) const override {
        double a = parameters[0][0], b = parameters[0][1];
        double spread = model::effective_spread(b);
        double z = (eval_ - a) / spread;
        double w = model::logistic(z);
        residuals[0] = w - density_;
        if (jacobians && jacobians[0]) {
            double slope = w * (1.0 - w) / spread;
            jacobians[0][0] = -slope;
            jacobians[0][1] = b < model::kMinSpread ? 0.0 : -slope * z;
        }
        return true;
    }

  private:
    double eval_, density_;
};

// Residual p(t) - y of a cubic, parameters {c3, c2, c1, c0}.
class CubicResidual final : public ceres::SizedCostFunction<1, 4> {
  public:
    CubicResidual(double t, double y) : t_(t), y_(y) {}

    bool Evaluate(double const* const* parameters, double* residuals,
                  double** jacobians) const override {
        const double* c = parameters[0];
        residuals[0] = ((c[0] * t_ + c[1]) * t_ + c[2]) * t_ + c[3] - y_;
        if (jacobians && jacobians[0]) {
            jacobians[0][0] = t_ * t_ * t_;
            jacobians[0][1] = t_ * t_;
            jacobians[0][2] = t_;
            jacobians[0][3] = 1.0;
        }
        return true;
    }

  private:
    double t_, y_;
};

void solve_least_squares(ceres::Problem& problem) {
    ceres::Solver::Options options;
    options.linear_solver_type = ceres::DENSE_QR;
    options.logging_type = ceres::SILENT;
    options.max_num_iterations = 1000;
    options.function_tolerance = 1e-15;
    options.gradient_tolerance = 1e-15;
    options.parameter_tolerance = 1e-14;
    ceres::Solver::Summary summary;
    ceres::Solve(options, &problem, &summary);
}

// Mean loss of one mom as a function of {a, b}.
class LocalObjective final : public ceres::FirstOrderFunction {
  public:
    LocalObjective(Objective objective, const MomData& mom) : objective_(objective), mom_(mom) {}

    bool Evaluate(const double* parameters, double* cost, double* gradient) const override {
        LossSum sum = loss_sum(objective_, mom_.cells, parameters[0], parameters[1]);
        *cost = sum.value / mom_.total;
        if (gradient) {
            gradient[0] = sum.d_a / mom_.total;
            gradient[1] = sum.d_b / mom_.total;
        }
        return std::isfinite(*cost);
    }
    int NumParameters() const override { return 2; }

  private:
    Objective objective_;
    const MomData& mom_;
};

// Mean loss over all moms as a function of the 8 coefficients {as, bs}. The chain rule through
// the cubics turns each mom's derivatives in (a, b) into derivatives in the coefficients.
class GlobalObjective final : public ceres::FirstOrderFunction {
  public:
    GlobalObjective(Objective objective, std::span<const MomData> moms, int mom_target)
        : objective_(objective), moms_(moms), mom_target_(mom_target) {
        for (const MomData& mom : moms) total_ += mom.total;
    }

    bool Evaluate(const double* parameters, double* cost, double* gradient) const override {
        model::Poly3 as{parameters[0], parameters[1], parameters[2], parameters[3]};
        model::Poly3 bs{parameters[4], parameters[5], parameters[6], parameters[7]};
        // Serial on purpose: an evaluation takes well under a millisecond, and on a busy
        // machine a thread team's barrier per evaluation costs more than it saves.
        std::vector<LossSum> sums(moms_.size());
        for (std::size_t i = 0; i < moms_.size(); ++i) {
            double t = double(moms_[i].mom) / mom_target_;
            sums[i] =
                loss_sum(objective_, moms_[i].cells, model::poly3(as, t), model::poly3(bs, t));
        }
        double value = 0;
        std::array<double, 8> slope{};
        for (std::size_t i = 0; i < moms_.size(); ++i) {
            double t = double(moms_[i].mom) / mom_target_;
            std::array<double, 4> powers{t * t * t, t * t, t, 1.0};
            value += sums[i].value;
            for (int k = 0; k < 4; ++k) {
                slope[k] += sums[i].d_a * powers[k];
                slope[4 + k] += sums[i].d_b * powers[k];
            }
        }
        *cost = value / total_;
        if (gradient) {
            for (int k = 0; k < 8; ++k) gradient[k] = slope[k] / total_;
        }
        return std::isfinite(*cost);
    }
    int NumParameters() const override { return 8; }

  private:
    Objective objective_;
    std::span<const MomData> moms_;
    int mom_target_;
    double total_ = 0;
};

// Ceres' line search warns on stderr when its interpolation degenerates near the optimum,
// which is harmless; only errors are worth showing.
void silence_solver_warnings() {
    static const bool silenced = [] {
        FLAGS_minloglevel = std::max(FLAGS_minloglevel, int(google::GLOG_ERROR));
        return true;
    }();
    (void)silenced;
}

// BFGS with tight tolerances. A line search that cannot make progress any more at machine
// precision ends a run; a fresh start (new Hessian estimate) then either improves or confirms
// the optimum, so the run is repeated until the cost stops decreasing.
Minimization minimize(ceres::FirstOrderFunction* function, double* parameters) {
    silence_solver_warnings();
    ceres::GradientProblem problem(function);
    ceres::GradientProblemSolver::Options options;
    options.line_search_direction_type = ceres::BFGS;
    options.logging_type = ceres::SILENT;
    options.max_num_iterations = 10000;
    options.function_tolerance = 1e-16;
    options.gradient_tolerance = 1e-11;
    options.parameter_tolerance = 1e-14;
    Minimization result;
    double previous_cost = INFINITY;
    for (int run = 0; run < 10; ++run) {
        ceres::GradientProblemSolver::Summary summary;
        ceres::Solve(options, problem, parameters, &summary);
        result.converged = summary.termination_type == ceres::CONVERGENCE;
        result.message = summary.message;
        if (result.converged || !(summary.final_cost < previous_cost)) break;
        previous_cost = summary.final_cost;
    }
    return result;
}

}  // namespace

LocalFit fit_density(const MomData& mom, LocalFit start) {
    std::array<double, 2> ab{start.a, start.b};
    ceres::Problem problem;
    for (const Cell& cell : mom.cells) {
        problem.AddResidualBlock(new WinDensityResidual(cell.eval, cell.wins / cell.total()),
                                 nullptr, ab.data());
    }
    solve_least_squares(problem);
    return {mom.mom, ab[0], ab[1]};
}

LocalFit refine_locally(Objective objective, const MomData& mom, LocalFit start) {
    std::array<double, 2> ab{start.a, start.b};
    minimize(new LocalObjective(objective, mom), ab.data());
    return {mom.mom, ab[0], ab[1]};
}

model::Poly3 fit_cubic(std::span<const double> ts, std::span<const double> ys) {
    model::Poly3 coeffs{1.0, 1.0, 1.0, 1.0};
    ceres::Problem problem;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        problem.AddResidualBlock(new CubicResidual(ts[i], ys[i]), nullptr, coeffs.data());
    }
    solve_least_squares(problem);
    return coeffs;
}

Minimization optimize_globally(Objective objective, std::span<const MomData> moms, int mom_target,
                               model::Poly3& as, model::Poly3& bs) {
    std::array<double, 8> coeffs;
    std::copy(as.begin(), as.end(), coeffs.begin());
    std::copy(bs.begin(), bs.end(), coeffs.begin() + 4);
    Minimization result = minimize(new GlobalObjective(objective, moms, mom_target), coeffs.data());
    std::copy(coeffs.begin(), coeffs.begin() + 4, as.begin());
    std::copy(coeffs.begin() + 4, coeffs.end(), bs.begin());
    return result;
}

FitResult fit_model(std::span<const MomData> moms, const FitOptions& options) {
    FitResult result;
    auto objective = method_objective(options.method);
    LocalFit start{0, double(options.pawn_value), options.pawn_value / 6.0};
    std::vector<double> ts, local_as, local_bs;
    for (const MomData& mom : moms) {
        if (mom.wins < double(options.win_min)) {
            result.skipped_moms.push_back(mom.mom);
            continue;
        }
        LocalFit local = fit_density(mom, start);
        if (objective) local = refine_locally(*objective, mom, local);
        result.local_fits.push_back(local);
        ts.push_back(double(mom.mom) / options.mom_target);
        local_as.push_back(local.a);
        local_bs.push_back(local.b);
    }
    if (result.local_fits.size() < 4) {
        throw std::runtime_error(fmt::format(
            "Error: only {} mom values have enough data for a local fit; the cubic fits need 4.",
            result.local_fits.size()));
    }
    result.as = fit_cubic(ts, local_as);
    result.bs = fit_cubic(ts, local_bs);
    if (objective) {
        result.initial_objective =
            model_objective(*objective, moms, options.mom_target, result.as, result.bs);
        result.minimization =
            optimize_globally(*objective, moms, options.mom_target, result.as, result.bs);
        result.final_objective =
            model_objective(*objective, moms, options.mom_target, result.as, result.bs);
    }
    return result;
}

}  // namespace wdl::fit
