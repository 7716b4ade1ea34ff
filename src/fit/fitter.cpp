#include "wdl/fit/fitter.hpp"

#include <ceres/ceres.h>
#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "wdl/util/error.hpp"

namespace wdl::fit {

std::string_view method_name(Method method) { return util::name_of(kMethodNames, method); }

std::optional<Method> method_from_name(std::string_view name) {
    return util::value_named(kMethodNames, name);
}

std::optional<Objective> method_objective(Method method) {
    if (method == Method::OptimizeProbability) return Objective::Probability;
    if (method == Method::OptimizeScore) return Objective::Score;
    return std::nullopt;
}

namespace {

// Residuals win_rate(x; a, b) - observed win density at every eval of one mom, parameters
// {a, b}. One cost function for all of a mom's cells: a residual block per cell would cost a
// heap object and Ceres' bookkeeping each, more than evaluating them.
class WinDensityResiduals final : public ceres::CostFunction {
  public:
    explicit WinDensityResiduals(const MomData& mom) : cells_(mom.cells) {
        set_num_residuals(int(cells_.size()));
        mutable_parameter_block_sizes()->push_back(2);
    }

    bool Evaluate(double const* const* parameters, double* residuals,
                  double** jacobians) const override {
        double a = parameters[0][0], b = parameters[0][1];
        double spread = model::effective_spread(b);
        double* jacobian = jacobians ? jacobians[0] : nullptr;  // row-major, 2 per residual
        for (std::size_t i = 0; i < cells_.size(); ++i) {
            const Cell& cell = cells_[i];
            double z = (cell.eval - a) / spread;
            double w = model::logistic(z);
            residuals[i] = w - cell.wins / cell.total();
            if (jacobian) {
                double slope = w * (1.0 - w) / spread;
                jacobian[2 * i] = -slope;
                jacobian[2 * i + 1] = b < model::kMinSpread ? 0.0 : -slope * z;
            }
        }
        return true;
    }

  private:
    const std::vector<Cell>& cells_;
};

// Ceres logs to stderr when its line search degenerates near an optimum (harmless) and when
// a solve fails, which the fit reports itself, naming what failed; only fatal errors stay.
void silence_solver_logging() {
    static const bool silenced = [] {
        FLAGS_minloglevel = std::max(FLAGS_minloglevel, int(google::GLOG_FATAL));
        return true;
    }();
    (void)silenced;
}

ceres::Solver::Summary solve_least_squares(ceres::Problem& problem) {
    silence_solver_logging();
    ceres::Solver::Options options;
    options.linear_solver_type = ceres::DENSE_QR;
    options.logging_type = ceres::SILENT;
    options.max_num_iterations = 1000;
    options.function_tolerance = 1e-15;
    options.gradient_tolerance = 1e-15;
    options.parameter_tolerance = 1e-14;
    ceres::Solver::Summary summary;
    ceres::Solve(options, &problem, &summary);
    return summary;
}

// A smooth objective with exact first and second derivatives.
class SmoothObjective {
  public:
    virtual ~SmoothObjective() = default;
    virtual int parameter_count() const = 0;
    // The value at parameters; also the gradient and the Hessian when asked for.
    virtual double evaluate(const double* parameters, double* gradient,
                            Eigen::MatrixXd* hessian) const = 0;
};

// Mean loss of one mom as a function of {a, b}.
class LocalObjective final : public SmoothObjective {
  public:
    LocalObjective(Objective objective, const MomData& mom) : objective_(objective), mom_(mom) {}

    int parameter_count() const override { return 2; }
    double evaluate(const double* parameters, double* gradient,
                    Eigen::MatrixXd* hessian) const override {
        LossSum sum = loss_sum(objective_, mom_.cells, parameters[0], parameters[1]);
        if (gradient) {
            gradient[0] = sum.d_a / mom_.total;
            gradient[1] = sum.d_b / mom_.total;
        }
        if (hessian) {
            *hessian << sum.d_aa, sum.d_ab, sum.d_ab, sum.d_bb;
            *hessian /= mom_.total;
        }
        return sum.value / mom_.total;
    }

  private:
    Objective objective_;
    const MomData& mom_;
};

// Mean loss over all moms as a function of the coefficients of both curves, a's then b's. The
// chain rule through the curves turns each mom's derivatives in (a, b) into derivatives in the
// coefficients (plus, for a rational curve, its own curvature in them). With several sources
// of data (e.g. time controls) a is shared and each source has a b of its own: a's
// coefficients, then source 0's b, source 1's b, and so on.
class GlobalObjective final : public SmoothObjective {
  public:
    GlobalObjective(Objective objective, std::vector<std::span<const MomData>> sources,
                    int mom_target, model::CurveForm a_form, model::CurveForm b_form)
        : objective_(objective),
          sources_(std::move(sources)),
          mom_target_(mom_target),
          a_form_(a_form),
          b_form_(b_form),
          a_count_(a_form.parameter_count()),
          b_count_(b_form.parameter_count()) {
        for (const auto& moms : sources_)
            for (const MomData& mom : moms) total_ += mom.total;
    }

    int parameter_count() const override { return a_count_ + b_count_ * int(sources_.size()); }
    double total_count() const { return total_; }
    // Serial on purpose: an evaluation takes well under a millisecond, and on a busy machine a
    // thread team's barrier per evaluation costs more than it saves.
    double evaluate(const double* parameters, double* gradient,
                    Eigen::MatrixXd* hessian) const override {
        const int n = parameter_count();
        model::Coefficients as(parameters, parameters + a_count_);
        double value = 0;
        Eigen::VectorXd slope = Eigen::VectorXd::Zero(n);
        Eigen::MatrixXd curvature;
        if (hessian) curvature = Eigen::MatrixXd::Zero(n, n);
        Eigen::VectorXd a_gradient(a_count_), b_gradient(b_count_);
        for (std::size_t source = 0; source < sources_.size(); ++source) {
            const int b_offset = a_count_ + b_count_ * int(source);
            model::Coefficients bs(parameters + b_offset, parameters + b_offset + b_count_);
            for (const MomData& mom : sources_[source]) {
                double t = double(mom.mom) / mom_target_;
                if (!model::curve_defined_at(a_form_, as, t) ||
                    !model::curve_defined_at(b_form_, bs, t))
                    return std::numeric_limits<double>::infinity();
                LossSum sum = loss_sum(objective_, mom.cells, model::curve_value(a_form_, as, t),
                                       model::curve_value(b_form_, bs, t));
                value += sum.value;
                model::curve_gradient(a_form_, as, t, {a_gradient.data(), std::size_t(a_count_)});
                model::curve_gradient(b_form_, bs, t, {b_gradient.data(), std::size_t(b_count_)});
                slope.head(a_count_) += sum.d_a * a_gradient;
                slope.segment(b_offset, b_count_) += sum.d_b * b_gradient;
                if (hessian)
                    add_curvature(curvature, b_offset, sum, t, as, bs, a_gradient, b_gradient);
            }
        }
        if (gradient) {
            for (int k = 0; k < n; ++k) gradient[k] = slope[k] / total_;
        }
        if (hessian) {
            *hessian = curvature / total_;
        }
        return value / total_;
    }

  private:
    // One mom's terms of the Hessian: the outer products are formed before they are scaled, in
    // the order that keeps the cubic fit's digits.
    void add_curvature(Eigen::MatrixXd& curvature, int b_offset, const LossSum& sum, double t,
                       const model::Coefficients& as, const model::Coefficients& bs,
                       const Eigen::VectorXd& a_gradient, const Eigen::VectorXd& b_gradient) const {
        Eigen::MatrixXd outer_aa = a_gradient * a_gradient.transpose();
        Eigen::MatrixXd outer_ab = a_gradient * b_gradient.transpose();
        Eigen::MatrixXd outer_bb = b_gradient * b_gradient.transpose();
        curvature.topLeftCorner(a_count_, a_count_) += sum.d_aa * outer_aa;
        curvature.block(0, b_offset, a_count_, b_count_) += sum.d_ab * outer_ab;
        curvature.block(b_offset, 0, b_count_, a_count_) += sum.d_ab * outer_ab.transpose();
        curvature.block(b_offset, b_offset, b_count_, b_count_) += sum.d_bb * outer_bb;
        if (a_form_.kind != model::CurveKind::Polynomial) {
            Eigen::MatrixXd own(a_count_, a_count_);
            model::curve_hessian(a_form_, as, t, {own.data(), std::size_t(own.size())});
            curvature.topLeftCorner(a_count_, a_count_) += sum.d_a * own;
        }
        if (b_form_.kind != model::CurveKind::Polynomial) {
            Eigen::MatrixXd own(b_count_, b_count_);
            model::curve_hessian(b_form_, bs, t, {own.data(), std::size_t(own.size())});
            curvature.block(b_offset, b_offset, b_count_, b_count_) += sum.d_b * own;
        }
    }

    Objective objective_;
    std::vector<std::span<const MomData>> sources_;
    int mom_target_;
    model::CurveForm a_form_, b_form_;
    int a_count_, b_count_;
    double total_ = 0;
};

GlobalObjective global_objective(Objective objective, std::span<const MomData> moms,
                                 const model::WdlModel& model) {
    return {objective, {moms}, model.mom_target, model.a_form, model.b_form};
}

// The first-order view of a SmoothObjective that Ceres' line search minimizers take.
class GradientOf final : public ceres::FirstOrderFunction {
  public:
    explicit GradientOf(const SmoothObjective& objective) : objective_(objective) {}

    bool Evaluate(const double* parameters, double* cost, double* gradient) const override {
        *cost = objective_.evaluate(parameters, gradient, nullptr);
        return std::isfinite(*cost);
    }
    int NumParameters() const override { return objective_.parameter_count(); }

  private:
    const SmoothObjective& objective_;
};

// Newton's method stops when a full step promises to lower the cost by at most this fraction:
// well below anything a printed digit shows, well above the rounding noise of the sums.
constexpr double kNegligibleDecrease = 1e-14;
constexpr int kMaxNewtonSteps = 200;

// Damped Newton steps on the exact Hessian (Levenberg-Marquardt damping, in the basis that
// scales the Hessian's diagonal to 1) until the Newton decrement g' H^-1 g / 2, the decrease
// a full step promises, is negligible. Converged means an undamped step's promise was, and
// that final step is taken.
Minimization newton_polish(const SmoothObjective& objective, double* parameters) {
    const int n = objective.parameter_count();
    Eigen::Map<Eigen::VectorXd> x(parameters, n);
    Eigen::VectorXd gradient(n), candidate_gradient(n);
    Eigen::MatrixXd hessian(n, n), candidate_hessian(n, n);
    double cost = objective.evaluate(x.data(), gradient.data(), &hessian);
    double damping = 0;
    bool flat = false;  // the undamped Hessian was last found not positive definite
    for (int step = 0; step < kMaxNewtonSteps; ++step) {
        if (!std::isfinite(cost) || !gradient.allFinite() || !hessian.allFinite()) {
            return {false, "the objective or its derivatives are not finite"};
        }
        Eigen::VectorXd scale = hessian.diagonal().cwiseAbs().cwiseSqrt();
        for (double& s : scale) s = s > 0 ? s : 1.0;
        Eigen::MatrixXd scaled =
            scale.cwiseInverse().asDiagonal() * hessian * scale.cwiseInverse().asDiagonal();
        scaled.diagonal().array() += damping;
        Eigen::VectorXd scaled_gradient = gradient.cwiseQuotient(scale);
        Eigen::LLT<Eigen::MatrixXd> factorization(scaled);
        if (damping == 0) flat = factorization.info() != Eigen::Success;
        if (factorization.info() != Eigen::Success) {
            damping = std::max(4 * damping, 1e-8);  // not positive definite: damp more
            continue;
        }
        Eigen::VectorXd move = -factorization.solve(scaled_gradient);
        double promised = -0.5 * scaled_gradient.dot(move);
        Eigen::VectorXd candidate = x + move.cwiseQuotient(scale);
        if (promised <= kNegligibleDecrease * std::abs(cost)) {
            // Too small a change to test against the cost's rounding: an undamped Newton step
            // is exact here and is taken; a damped one's promise says little, so retry undamped.
            if (damping == 0) {
                x = candidate;
                return {true, ""};
            }
            damping = 0;
            continue;
        }
        double candidate_cost =
            objective.evaluate(candidate.data(), candidate_gradient.data(), &candidate_hessian);
        if (candidate_cost < cost) {
            x = candidate;
            cost = candidate_cost;
            gradient.swap(candidate_gradient);
            hessian.swap(candidate_hessian);
            damping = damping < 1e-6 ? 0 : damping / 8;
        } else {
            damping = std::max(4 * damping, 1e-8);
        }
    }
    if (flat) {
        return {false,
                "no strict minimum where the search ended (the Hessian is not positive "
                "definite): the data do not determine all parameters, e.g. outcomes that the "
                "eval separates perfectly drive the spread to 0"};
    }
    return {false, fmt::format("Newton's method did not settle within {} steps (a step still "
                               "promised more than {} of the objective)",
                               kMaxNewtonSteps, kNegligibleDecrease)};
}

// BFGS brings the parameters near the optimum cheaply; in the fits' long narrow valleys
// (Hessian eigenvalues 6 orders of magnitude apart) it stalls short of it, so Newton's method
// on the exact Hessian finishes and decides convergence.
Minimization minimize(const SmoothObjective& objective, double* parameters) {
    silence_solver_logging();
    ceres::GradientProblem problem(new GradientOf(objective));
    ceres::GradientProblemSolver::Options options;
    options.line_search_direction_type = ceres::BFGS;
    options.logging_type = ceres::SILENT;
    options.max_num_iterations = 1000;
    ceres::GradientProblemSolver::Summary summary;
    ceres::Solve(options, problem, parameters, &summary);
    return newton_polish(objective, parameters);
}

// The parameters of the global objective: a's coefficients, then b's.
std::vector<double> parameters_of(const model::WdlModel& model) {
    std::vector<double> parameters = model.as;
    parameters.insert(parameters.end(), model.bs.begin(), model.bs.end());
    return parameters;
}

void set_parameters(const std::vector<double>& parameters, model::WdlModel& model) {
    auto split = parameters.begin() + model.a_form.parameter_count();
    model.as.assign(parameters.begin(), split);
    model.bs.assign(split, parameters.end());
}

// Least squares of a fixed number of unknowns (fixed-size Eigen, whose arithmetic the cubic's
// printed digits depend on).
template <int Unknowns>
std::optional<model::Coefficients> solve_polynomial(std::span<const double> ts,
                                                    std::span<const double> ys) {
    using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Unknowns>;
    Matrix powers(ts.size(), Unknowns);
    for (std::size_t i = 0; i < ts.size(); ++i) {
        double power = 1.0;
        for (int k = Unknowns - 1; k >= 0; --k) {
            powers(Eigen::Index(i), k) = power;
            power *= ts[i];
        }
    }
    Eigen::VectorXd values = Eigen::Map<const Eigen::VectorXd>(ys.data(), Eigen::Index(ys.size()));
    Eigen::ColPivHouseholderQR<Matrix> decomposition(powers);
    if (decomposition.rank() < Unknowns) return std::nullopt;
    Eigen::Matrix<double, Unknowns, 1> coefficients = decomposition.solve(values);
    if (!coefficients.allFinite()) return std::nullopt;
    return model::Coefficients(coefficients.data(), coefficients.data() + Unknowns);
}

}  // namespace

LocalResult fit_density(const MomData& mom, LocalFit start) {
    if (mom.cells.empty()) return {start, {false, "no data"}};
    std::array<double, 2> ab{start.a, start.b};
    ceres::Problem problem;
    problem.AddResidualBlock(new WinDensityResiduals(mom), nullptr, ab.data());
    ceres::Solver::Summary summary = solve_least_squares(problem);
    bool converged = summary.termination_type == ceres::CONVERGENCE;
    return {{mom.mom, ab[0], ab[1]}, {converged, converged ? "" : summary.message}};
}

LocalResult refine_locally(Objective objective, const MomData& mom, LocalFit start) {
    std::array<double, 2> ab{start.a, start.b};
    LocalObjective local(objective, mom);
    Minimization minimization = minimize(local, ab.data());
    if (minimization.converged && objective == Objective::Probability) {
        // A mom whose outcomes the eval barely orders lets (a, b) run off together towards a
        // flat curve, and the search stops there with a tiny gradient and a tiny but positive
        // curvature: a "minimum" at a = 4e14 that poisons the polynomial start of stage 3 and
        // every form fitted from it. Its curvature says so: the error of a or b, from the
        // inverse of the Fisher information (the positions' total curvature of the
        // log-likelihood; the score objective's curvature is no information), exceeds the value.
        Eigen::MatrixXd hessian(2, 2);
        local.evaluate(ab.data(), nullptr, &hessian);
        Eigen::Matrix2d covariance = (hessian * mom.total).inverse();
        if (!(covariance(0, 0) < ab[0] * ab[0]) || !(covariance(1, 1) < ab[1] * ab[1])) {
            minimization = {false, fmt::format("a = {:.4g} and b = {:.4g} are not determined by "
                                               "the data (their error exceeds them)",
                                               ab[0], ab[1])};
        }
    }
    return {{mom.mom, ab[0], ab[1]}, minimization};
}

// Linear least squares, solved directly: a QR decomposition with column pivoting of the
// matrix of powers (t^degree, ..., t, 1) of the points.
std::optional<model::Coefficients> fit_polynomial(std::span<const double> ts,
                                                  std::span<const double> ys, int degree) {
    static_assert(model::kMaxCurveDegree == 5, "a solver for every degree");
    switch (degree) {
        case 1:
            return solve_polynomial<2>(ts, ys);
        case 2:
            return solve_polynomial<3>(ts, ys);
        case 3:
            return solve_polynomial<4>(ts, ys);
        case 4:
            return solve_polynomial<5>(ts, ys);
        case 5:
            return solve_polynomial<6>(ts, ys);
        default:
            return std::nullopt;
    }
}

Minimization optimize_globally(Objective objective, std::span<const MomData> moms,
                               model::WdlModel& model) {
    std::vector<double> parameters = parameters_of(model);
    Minimization result = minimize(global_objective(objective, moms, model), parameters.data());
    set_parameters(parameters, model);
    return result;
}

std::optional<FitUncertainty> probability_fit_uncertainty(std::span<const MomData> moms,
                                                          const model::WdlModel& model) {
    GlobalObjective objective = global_objective(Objective::Probability, moms, model);
    const int n = objective.parameter_count(), a_count = model.a_form.parameter_count();
    std::vector<double> parameters = parameters_of(model);
    Eigen::MatrixXd hessian(n, n);
    objective.evaluate(parameters.data(), nullptr, &hessian);
    Eigen::MatrixXd information = hessian * objective.total_count();
    Eigen::LLT<Eigen::MatrixXd> factorization(information);
    if (!information.allFinite() || factorization.info() != Eigen::Success) return std::nullopt;
    Eigen::MatrixXd covariance = factorization.solve(Eigen::MatrixXd::Identity(n, n));
    FitUncertainty uncertainty;
    uncertainty.covariance.assign(std::size_t(n), std::vector<double>(std::size_t(n)));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            uncertainty.covariance[std::size_t(i)][std::size_t(j)] = covariance(i, j);
    // p(1) by the delta method: its gradient in the coefficients (all ones for a polynomial).
    Eigen::VectorXd a_gradient(a_count), b_gradient(n - a_count);
    model::curve_gradient(model.a_form, model.as, 1.0, {a_gradient.data(), std::size_t(a_count)});
    model::curve_gradient(model.b_form, model.bs, 1.0,
                          {b_gradient.data(), std::size_t(n - a_count)});
    uncertainty.pawn_value_error =
        std::sqrt(a_gradient.dot(covariance.topLeftCorner(a_count, a_count) * a_gradient));
    uncertainty.spread_error = std::sqrt(
        b_gradient.dot(covariance.bottomRightCorner(n - a_count, n - a_count) * b_gradient));
    return uncertainty;
}

FitResult fit_model(std::span<const MomData> moms, const FitOptions& options) {
    FitResult result;
    result.model.mom_type = options.mom_type;
    result.model.mom_target = options.mom_target;
    // The model holds for the moms the data covered: Stockfish clamps its argument likewise.
    if (!moms.empty()) {
        result.model.mom_min = moms.front().mom;
        result.model.mom_max = moms.back().mom;
    }
    auto objective = method_objective(options.method);
    LocalFit start{0, double(options.pawn_value), options.pawn_value / 6.0};
    std::vector<double> ts, local_as, local_bs;
    for (const MomData& mom : moms) {
        if (mom.wins < double(options.win_min)) {
            result.skipped_moms.push_back(mom.mom);
            continue;
        }
        LocalResult local = fit_density(mom, start);
        if (local.minimization.converged && objective) {
            local = refine_locally(*objective, mom, local.fit);
        }
        if (!local.minimization.converged) {
            result.failed_local_fits.push_back({mom.mom, local.minimization.message});
            continue;
        }
        result.local_fits.push_back(local.fit);
        ts.push_back(double(mom.mom) / options.mom_target);
        local_as.push_back(local.fit.a);
        local_bs.push_back(local.fit.b);
    }
    int needed = std::max(options.a_form.degree, options.b_form.degree) + 1;
    if (int(result.local_fits.size()) < needed) {
        throw Error(
            fmt::format("only {} mom values have a local fit (enough wins, converged); "
                        "the fits of p_a ({}) and p_b ({}) need {}.",
                        result.local_fits.size(), model::curve_form_name(options.a_form),
                        model::curve_form_name(options.b_form), needed));
    }
    result.model.a_form = options.a_form;
    result.model.b_form = options.b_form;
    for (auto [coefficients, points, form, name] :
         {std::tuple{&result.model.as, &local_as, options.a_form, "p_a"},
          std::tuple{&result.model.bs, &local_bs, options.b_form, "p_b"}}) {
        // A rational curve starts as the polynomial of its numerator, over 1 + 0 t.
        auto polynomial = fit_polynomial(ts, *points, form.degree);
        if (!polynomial) {
            throw Error(fmt::format(
                "the least-squares polynomial fit of {} to the local fits failed (the points "
                "do not determine a polynomial of degree {}, or are not finite).",
                name, form.degree));
        }
        *coefficients = *polynomial;
        if (form.kind == model::CurveKind::Rational) coefficients->push_back(0.0);
    }
    if (objective) {
        result.initial_objective = model_objective(*objective, moms, result.model);
        result.minimization = optimize_globally(*objective, moms, result.model);
        result.final_objective = model_objective(*objective, moms, result.model);
        if (*objective == Objective::Probability && result.minimization->converged) {
            result.uncertainty = probability_fit_uncertainty(moms, result.model);
        }
    }
    return result;
}

SharedFit fit_shared_a(Objective objective, std::span<const std::vector<MomData>> sources,
                       const std::vector<model::WdlModel>& start, bool refit) {
    const model::WdlModel& first = start.front();
    std::vector<std::span<const MomData>> spans(sources.begin(), sources.end());
    GlobalObjective shared(objective, spans, first.mom_target, first.a_form, first.b_form);
    std::vector<double> parameters = first.as;
    for (const auto& model : start)
        parameters.insert(parameters.end(), model.bs.begin(), model.bs.end());
    SharedFit fit;
    fit.minimization =
        refit ? newton_polish(shared, parameters.data()) : minimize(shared, parameters.data());
    const std::size_t a_count = first.as.size(), b_count = first.bs.size();
    for (std::size_t source = 0; source < start.size(); ++source) {
        model::WdlModel model = start[source];
        model.as.assign(parameters.begin(), parameters.begin() + std::ptrdiff_t(a_count));
        auto b_start = parameters.begin() + std::ptrdiff_t(a_count + source * b_count);
        model.bs.assign(b_start, b_start + std::ptrdiff_t(b_count));
        fit.models.push_back(std::move(model));
    }
    return fit;
}

std::vector<MomData> pooled_mom_data(std::span<const std::vector<MomData>> sources) {
    std::map<int, std::map<double, Cell>> cells;
    for (const auto& moms : sources) {
        for (const MomData& mom : moms) {
            for (const Cell& cell : mom.cells) {
                Cell& sum = cells[mom.mom][cell.eval];
                sum.eval = cell.eval;
                sum.wins += cell.wins;
                sum.draws += cell.draws;
                sum.losses += cell.losses;
            }
        }
    }
    std::vector<MomData> pooled;
    for (const auto& [mom, by_eval] : cells) {
        MomData data;
        data.mom = mom;
        for (const auto& [eval, cell] : by_eval) {
            data.cells.push_back(cell);
            data.wins += cell.wins;
            data.total += cell.total();
        }
        pooled.push_back(std::move(data));
    }
    return pooled;
}

Refit refit_model(std::span<const MomData> moms, const FitOptions& options,
                  const model::WdlModel& fitted) {
    auto objective = method_objective(options.method);
    if (!objective) {
        try {
            return {fit_model(moms, options).model, {true, ""}};
        } catch (const Error& error) {
            return {fitted, {false, error.what()}};
        }
    }
    Refit refit{fitted, {}};
    std::vector<double> parameters = parameters_of(fitted);
    refit.minimization = newton_polish(
        GlobalObjective(*objective, {moms}, options.mom_target, fitted.a_form, fitted.b_form),
        parameters.data());
    set_parameters(parameters, refit.model);
    return refit;
}

}  // namespace wdl::fit
