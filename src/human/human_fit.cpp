#include "wdl/human/human_fit.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "wdl/fit/folds.hpp"
#include "wdl/fit/objective.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::human {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// log(logistic(z)) without overflow.
double log_logistic(double z) {
    return z < 0 ? z - std::log1p(std::exp(z)) : -std::log1p(std::exp(-z));
}

double weight_of(const GroupWeights& weights, int group) {
    return weights.empty() ? 1.0 : weights[std::size_t(group)];
}

// Vectors and matrices of the parameters, on the stack (a unit's derivatives are computed for
// every unit in every evaluation).
constexpr int kMostParameters = 20;
using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMostParameters, 1>;
using Matrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMostParameters, kMostParameters>;
// A cell's logits move with a, r = 1 / b, g, tau and the eval's own terms (kappa, the map, eta).
constexpr int kLogitTerms = 4;

// One of the curves a or b at a unit with its derivatives in the parameters: a cubic in t
// (coefficients from `cubic`) times exp of a polynomial in l (coefficients from `exponent`)
// and, for a at a unit of evals shown as 0.00 (`zero_eval`), times exp(zeta).
struct CurveAt {
    double value = 0;
    Vector gradient;
    Matrix hessian;
};

CurveAt curve_at(const HumanModel& model, std::size_t cubic, std::size_t exponent, double t,
                 double l, bool zero_eval, bool derivatives) {
    const int n = parameter_count(model.form), terms = level_terms(model.form);
    const CurveFactors factors = curve_factors(model.parameters, cubic, exponent, terms, t, l);
    // The exponent's terms: (parameter, what multiplies it), l^j for alpha or beta, 1 for zeta.
    std::array<std::pair<Eigen::Index, double>, kMostParameters> powers{};
    int count = 0;
    for (int j = 0; j < terms; ++j)
        powers[std::size_t(count++)] = {Eigen::Index(exponent) + j, std::pow(l, j + 1)};
    double factor = factors.level;
    if (zero_eval) {
        const std::size_t zeta = zero_eval_index(model.form);
        factor *= std::exp(model.parameters[zeta]);
        powers[std::size_t(count++)] = {Eigen::Index(zeta), 1.0};
    }
    CurveAt at{factors.cubic * factor, {}, {}};
    if (!derivatives) return at;
    at.gradient = Vector::Zero(n);
    at.hessian = Matrix::Zero(n, n);
    for (int i = 0; i < kCurveTerms; ++i)
        at.gradient[Eigen::Index(cubic) + i] = std::pow(t, i) * factor;
    for (int j = 0; j < count; ++j) {
        const auto [e, power] = powers[std::size_t(j)];
        at.gradient[e] = at.value * power;
        for (int i = 0; i < kCurveTerms; ++i) {
            const Eigen::Index c = Eigen::Index(cubic) + i;
            at.hessian(c, e) = at.hessian(e, c) = std::pow(t, i) * factor * power;
        }
        for (int k = 0; k < count; ++k)
            at.hessian(e, powers[std::size_t(k)].first) =
                at.value * power * powers[std::size_t(k)].second;
    }
    return at;
}

// The side to move's shift tau(l) at a unit, a polynomial in l from tempo_index.
double tempo_at(const HumanModel& model, double l) {
    double tempo = 0;
    for (int j = tempo_terms(model.form); j-- > 0;)
        tempo = tempo * l + model.parameters[tempo_index(model.form) + std::size_t(j)];
    return tempo;
}

// What the cells of one unit add up to, in the basis (grad a, grad r, e_g, grad tau, e_kappa,
// e_map..., e_eta) of their logits' gradients (r = 1 / b): z_w = (x + sum_j e_j theta_j - a) r +
// tau + g d and z_l = (-x - sum_j e_j theta_j - a) r - tau - g d, e_j the eval's own terms
// (HumanModel::pawns_gradient: the sign of an eval at the ceiling for kappa, the map's weights,
// the eval's size for eta).
// Of fixed size per number of eval terms: the cells' loop is the fit's hot path.
template <int Evals>
struct UnitSums {
    static constexpr int kLocal = kLogitTerms + Evals;
    using Local = Eigen::Matrix<double, kLocal, 1>;
    Local gradient = Local::Zero();
    Eigen::Matrix<double, kLocal, kLocal> hessian = Eigen::Matrix<double, kLocal, kLocal>::Zero();
    double ar = 0, rr = 0;  // the factors of the logits' own second derivatives
    EvalTerms er{};
    bool used = false;
};

template <int Evals>
LossDerivatives loss_with_evals(const HumanData& data, const HumanModel& model,
                                const GroupWeights& weights, bool derivatives) {
    using Sums = UnitSums<Evals>;
    constexpr int local = Sums::kLocal;
    const int n = parameter_count(model.form), terms = level_terms(model.form);
    const std::size_t a_exponent = 2 * kCurveTerms, b_exponent = a_exponent + std::size_t(terms);
    const double g = has_difference(model.form) ? model.parameters.back() : 0;
    LossDerivatives result;
    std::vector<double> a(data.units.size()), r(data.units.size()), tempo(data.units.size());
    for (std::size_t u = 0; u < data.units.size(); ++u) {
        const double t = data.units[u].material / kMaterialTarget, l = data.units[u].level;
        const bool zero = has_zero_eval(model.form) && data.units[u].zero_eval;
        a[u] = curve_at(model, 0, a_exponent, t, l, zero, false).value;
        r[u] = 1 / curve_at(model, kCurveTerms, b_exponent, t, l, false, false).value;
        tempo[u] = tempo_at(model, l);
    }
    const std::size_t first_eval = ceiling_index(model.form);
    std::vector<Sums> sums(derivatives ? data.units.size() : 0);
    for (const auto& cell : data.cells) {
        const double weight = weight_of(weights, cell.group);
        if (weight == 0) continue;
        const std::size_t u = cell.unit;
        if (!(a[u] > 0 && r[u] > 0 && std::isfinite(r[u]))) {
            result.value = kInfinity;
            return result;
        }
        // The eval's own terms are kept for the derivatives.
        const EvalTerms e = model.pawns_gradient(cell.cp);
        const double x = model.pawns(cell.cp, e);
        const double d = double(cell.rating - cell.opponent_rating) / kRatingScale;
        const double shift = tempo[u] + g * d;
        const double z_w = (x - a[u]) * r[u] + shift, z_l = (-x - a[u]) * r[u] - shift;
        const double win = model::logistic(z_w), loss = model::logistic(z_l);
        const double draw = 1 - win - loss;
        const double n_w = weight * cell.outcomes[0], n_d = weight * cell.outcomes[1],
                     n_l = weight * cell.outcomes[2];
        if (n_d > 0 && !(draw > 0)) {
            result.value = kInfinity;
            return result;
        }
        // Only the outcomes observed cost a logarithm (most cells hold one).
        if (n_w > 0) result.value -= n_w * log_logistic(z_w);
        if (n_l > 0) result.value -= n_l * log_logistic(z_l);
        if (n_d > 0) result.value -= n_d * std::log(draw);
        result.positions += n_w + n_d + n_l;
        if (!derivatives) continue;
        const double win_slope = win * (1 - win), loss_slope = loss * (1 - loss);
        double g_w = -n_w * (1 - win), g_l = -n_l * (1 - loss);
        double h_ww = n_w * win_slope, h_ll = n_l * loss_slope, h_wl = 0;
        if (n_d > 0) {
            g_w += n_d * win_slope / draw;
            g_l += n_d * loss_slope / draw;
            h_ww +=
                n_d * (win_slope * (1 - 2 * win) / draw + win_slope * win_slope / (draw * draw));
            h_ll += n_d *
                    (loss_slope * (1 - 2 * loss) / draw + loss_slope * loss_slope / (draw * draw));
            h_wl += n_d * win_slope * loss_slope / (draw * draw);
        }
        typename Sums::Local c_w, c_l;
        c_w.template head<kLogitTerms>() << -r[u], x - a[u], d, 1;
        c_l.template head<kLogitTerms>() << -r[u], -x - a[u], -d, -1;
        for (int j = 0; j < Evals; ++j) {
            c_w[kLogitTerms + j] = e[std::size_t(j)] * r[u];
            c_l[kLogitTerms + j] = -e[std::size_t(j)] * r[u];
        }
        auto& unit = sums[u];
        unit.used = true;
        unit.gradient += g_w * c_w + g_l * c_l;
        unit.hessian += h_ww * c_w * c_w.transpose() + h_ll * c_l * c_l.transpose() +
                        h_wl * (c_w * c_l.transpose() + c_l * c_w.transpose());
        unit.ar += g_w + g_l;
        unit.rr += g_w * (x - a[u]) + g_l * (-x - a[u]);
        for (std::size_t j = 0; j < std::size_t(Evals); ++j) unit.er[j] += (g_w - g_l) * e[j];
    }
    if (!derivatives) return result;
    Vector gradient = Vector::Zero(n);
    Matrix hessian = Matrix::Zero(n, n);
    for (std::size_t u = 0; u < sums.size(); ++u) {
        const auto& unit = sums[u];
        if (!unit.used) continue;
        const double t = data.units[u].material / kMaterialTarget, l = data.units[u].level;
        const bool zero = has_zero_eval(model.form) && data.units[u].zero_eval;
        const CurveAt a_at = curve_at(model, 0, a_exponent, t, l, zero, true);
        const CurveAt b_at = curve_at(model, kCurveTerms, b_exponent, t, l, false, true);
        const double b = b_at.value;
        const Vector r_gradient = -b_at.gradient / (b * b);
        const Matrix r_hessian =
            2 * b_at.gradient * b_at.gradient.transpose() / (b * b * b) - b_at.hessian / (b * b);
        Eigen::Matrix<double, Eigen::Dynamic, local, 0, kMostParameters, local> basis =
            Eigen::Matrix<double, Eigen::Dynamic, local, 0, kMostParameters, local>::Zero(n, local);
        basis.col(0) = a_at.gradient;
        basis.col(1) = r_gradient;
        if (has_difference(model.form)) basis(n - 1, 2) = 1;
        for (int j = 0, e = int(tempo_index(model.form)); j < tempo_terms(model.form); ++j)
            basis(e + j, 3) = std::pow(l, j);
        for (int j = 0; j < Evals; ++j) basis(Eigen::Index(first_eval) + j, kLogitTerms + j) = 1;
        gradient += basis * unit.gradient;
        hessian += basis * unit.hessian * basis.transpose();
        hessian -= unit.ar * (a_at.gradient * r_gradient.transpose() +
                              r_gradient * a_at.gradient.transpose() + (1 / b) * a_at.hessian);
        hessian += unit.rr * r_hessian;
        for (int j = 0; j < Evals; ++j) {
            const Eigen::Index k = Eigen::Index(first_eval) + j;
            hessian.row(k) += unit.er[std::size_t(j)] * r_gradient.transpose();
            hessian.col(k) += unit.er[std::size_t(j)] * r_gradient;
        }
    }
    result.gradient.assign(gradient.data(), gradient.data() + n);
    result.hessian.assign(std::size_t(n), std::vector<double>(std::size_t(n)));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) result.hessian[std::size_t(i)][std::size_t(j)] = hessian(i, j);
    return result;
}

}  // namespace

LossDerivatives human_loss(const HumanData& data, const HumanModel& model,
                           const GroupWeights& weights, bool derivatives) {
    switch (eval_terms(model.form)) {
        case 0:
            return loss_with_evals<0>(data, model, weights, derivatives);
        case 1:
            return loss_with_evals<1>(data, model, weights, derivatives);
        case int(1 + kEvalMapKnots.size()):
            return loss_with_evals<int(1 + kEvalMapKnots.size())>(data, model, weights,
                                                                  derivatives);
        case int(kMostEvalTerms):
            return loss_with_evals<int(kMostEvalTerms)>(data, model, weights, derivatives);
        default:
            throw Error(fmt::format("{} has {} eval terms, which the fit does not take",
                                    human_form_name(model.form), eval_terms(model.form)));
    }
}

namespace {

Eigen::MatrixXd matrix_of(const std::vector<std::vector<double>>& rows) {
    const auto n = Eigen::Index(rows.size());
    Eigen::MatrixXd matrix(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j) matrix(i, j) = rows[std::size_t(i)][std::size_t(j)];
    return matrix;
}

std::vector<std::vector<double>> rows_of(const Eigen::MatrixXd& matrix) {
    std::vector<std::vector<double>> rows(std::size_t(matrix.rows()));
    for (Eigen::Index i = 0; i < matrix.rows(); ++i)
        for (Eigen::Index j = 0; j < matrix.cols(); ++j)
            rows[std::size_t(i)].push_back(matrix(i, j));
    return rows;
}

// What a converged fit is checked for at its optimum.
void verify_optimum(const LossDerivatives& at, HumanFit& fit) {
    double largest = 0;
    for (double component : at.gradient) largest = std::max(largest, std::abs(component));
    fit.gradient_per_position = at.positions > 0 ? largest / at.positions : 0;
    const Eigen::MatrixXd hessian = matrix_of(at.hessian);
    Eigen::LLT<Eigen::MatrixXd> cholesky(hessian);
    fit.positive_curvature = cholesky.info() == Eigen::Success;
    if (fit.positive_curvature)
        fit.fisher_covariance =
            rows_of(cholesky.solve(Eigen::MatrixXd::Identity(hessian.rows(), hessian.cols())));
    if (!fit.positive_curvature)
        fit.failure =
            "the curvature at the optimum is not positive definite (a parameter the "
            "data do not determine)";
    else if (fit.gradient_per_position > kMaxGradientPerPosition)
        fit.failure = "the gradient at the optimum is not zero";
    fit.converged = fit.failure.empty();
}

// The form whose fit a form's starts from, its own parameters inserted at 0 from `index`:
// kappa's curvature is negative far from the curves' optimum, so it starts from the fit
// without it, and each later term from the fit of the form before it.
struct NestedStart {
    HumanForm form;
    std::size_t index, added;
};
std::optional<NestedStart> nested_start(HumanForm form) {
    switch (form) {
        case HumanForm::TempoCeilingDifference:
            return NestedStart{HumanForm::TempoDifference, ceiling_index(form), 1};
        case HumanForm::TempoCeilingMapDifference:
            return NestedStart{HumanForm::TempoCeilingDifference, eval_map_index(form),
                               kEvalMapKnots.size()};
        case HumanForm::TempoCeilingMapZeroDifference:
            return NestedStart{HumanForm::TempoCeilingMapDifference, zero_eval_index(form), 1};
        case HumanForm::TempoCeilingMapZeroSlipDifference:
            return NestedStart{HumanForm::TempoCeilingMapZeroDifference, slip_index(form), 1};
        default:
            return std::nullopt;
    }
}

}  // namespace

HumanFit fit_human_model(const HumanData& data, HumanForm form, const GroupWeights& weights,
                         const HumanModel* start) {
    if (auto nested = nested_start(form); nested && !start) {
        const HumanFit before = fit_human_model(data, nested->form, weights);
        if (before.converged) {
            HumanModel begin = before.model;
            begin.form = form;
            begin.parameters.insert(begin.parameters.begin() + std::ptrdiff_t(nested->index),
                                    nested->added, 0.0);
            return fit_human_model(data, form, weights, &begin);
        }
    }
    HumanFit fit;
    fit.model = start ? *start : starting_model(form);
    LossDerivatives at = human_loss(data, fit.model, weights);
    if (!std::isfinite(at.value) || at.positions == 0) {
        fit.failure = at.positions == 0 ? "no positions"
                                        : "the starting model gives an outcome "
                                          "no probability";
        return fit;
    }
    const int n = parameter_count(form);
    double lambda = 0;
    for (fit.iterations = 0; fit.iterations < 200; ++fit.iterations) {
        const Eigen::MatrixXd hessian = matrix_of(at.hessian);
        const Eigen::VectorXd gradient = Eigen::Map<const Eigen::VectorXd>(at.gradient.data(), n);
        bool accepted = false;
        // Levenberg's damping (scaled by the curvature's diagonal) where the curvature is not
        // positive or a step does not lower the loss; undamped near the optimum.
        for (int attempt = 0; attempt < 60 && !accepted; ++attempt) {
            Eigen::MatrixXd damped = hessian;
            damped.diagonal() += lambda * hessian.diagonal().cwiseAbs();
            Eigen::LLT<Eigen::MatrixXd> cholesky(damped);
            if (cholesky.info() != Eigen::Success) {
                lambda = std::max(1e-6, lambda * 10);
                continue;
            }
            Eigen::VectorXd step = -cholesky.solve(gradient);
            const double largest = step.cwiseAbs().maxCoeff();
            if (largest < 1e-9) {
                fit.loss = at.value;
                fit.positions = at.positions;
                verify_optimum(at, fit);
                return fit;
            }
            if (largest > 1) step /= largest;  // no step beyond one unit (a pawn) at once
            HumanModel trial = fit.model;
            for (int i = 0; i < n; ++i) trial.parameters[std::size_t(i)] += step[i];
            LossDerivatives next = human_loss(data, trial, weights);
            if (std::isfinite(next.value) && next.value <= at.value) {
                fit.model = std::move(trial);
                at = std::move(next);
                lambda = lambda / 10 < 1e-9 ? 0 : lambda / 10;
                accepted = true;
            } else {
                lambda = std::max(1e-6, lambda * 10);
            }
        }
        if (!accepted) break;
    }
    fit.loss = at.value;
    fit.positions = at.positions;
    fit.failure = "Newton's method did not converge";
    return fit;
}

HumanUncertainty jackknife_human(const HumanData& data, const HumanFit& fit, int threads,
                                 double confidence) {
    HumanUncertainty result;
    std::vector<int> groups;
    {
        std::vector<char> seen(std::size_t(data.groups), 0);
        for (const auto& cell : data.cells) seen[std::size_t(cell.group)] = 1;
        for (int group = 0; group < data.groups; ++group)
            if (seen[std::size_t(group)]) groups.push_back(group);
    }
    result.groups = int(groups.size());
    if (groups.size() < 2) {
        result.no_interval = "fewer than 2 groups hold positions";
        return result;
    }
    std::vector<HumanFit> replicates(groups.size());
    util::parallel_for(groups.size(), threads, [&](std::size_t, std::size_t item) {
        GroupWeights weights(std::size_t(data.groups), 1.0);
        weights[std::size_t(groups[item])] = 0;
        replicates[item] = fit_human_model(data, fit.model.form, weights, &fit.model);
    });
    std::vector<const HumanFit*> converged;
    for (std::size_t item = 0; item < groups.size(); ++item) {
        if (replicates[item].converged)
            converged.push_back(&replicates[item]);
        else
            result.failures.push_back("group " + std::to_string(groups[item]) + ": " +
                                      replicates[item].failure);
    }
    result.replicates = int(converged.size());
    if (auto refusal = fit::failed_replicates_refusal(result.failures.size(), groups.size())) {
        result.no_interval = *refusal;
        return result;
    }
    const auto names = parameter_names(fit.model.form);
    const std::size_t n = names.size(), m = converged.size();
    std::vector<double> means(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<double> values;
        for (const auto* replicate : converged) values.push_back(replicate->model.parameters[i]);
        means[i] = stats::mean(values);
        result.estimates.push_back(fit::jackknife_estimate(names[i], fit.model.parameters[i],
                                                           values, groups.size(), confidence));
    }
    // As jackknife_estimate scales a sum over missing replicates: G times the mean product.
    const double g = double(groups.size());
    result.covariance.assign(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double sum = 0;
            for (const auto* replicate : converged)
                sum += (replicate->model.parameters[i] - means[i]) *
                       (replicate->model.parameters[j] - means[j]);
            result.covariance[i][j] = (g - 1) / g * g * sum / double(m);
        }
    return result;
}

GroupWeights fold_weights(int groups, int folds, int fold, bool keep) {
    GroupWeights weights(std::size_t(groups), 0.0);
    for (int group = 0; group < groups; ++group)
        weights[std::size_t(group)] = (fit::fold_of(std::size_t(group), folds) == fold) == keep;
    return weights;
}

HumanSelection select_human_form(const HumanData& data, const std::vector<HumanForm>& forms,
                                 int folds, int threads) {
    HumanSelection selection;
    selection.groups = data.groups_with_positions();
    if (selection.groups < 2)
        throw Error("choosing a form needs at least 2 groups of games with positions");
    selection.folds = std::clamp(folds, 2, selection.groups);
    const std::size_t groups = std::size_t(data.groups);
    // Each form on all the data first: its folds start from there.
    std::vector<HumanFit> full(forms.size());
    util::parallel_for(forms.size(), threads, [&](std::size_t, std::size_t f) {
        full[f] = fit_human_model(data, forms[f]);
    });
    std::vector<HumanFit> fold_fits(forms.size() * std::size_t(selection.folds));
    util::parallel_for(fold_fits.size(), threads, [&](std::size_t, std::size_t item) {
        const std::size_t f = item / std::size_t(selection.folds);
        const int fold = int(item % std::size_t(selection.folds));
        if (!full[f].converged) return;
        fold_fits[item] =
            fit_human_model(data, forms[f], fold_weights(data.groups, selection.folds, fold, false),
                            &full[f].model);
    });
    for (std::size_t f = 0; f < forms.size(); ++f) {
        HumanFormScore score;
        score.form = forms[f];
        score.group_log_loss.assign(groups, 0.0);
        score.group_positions.assign(groups, 0.0);
        if (!full[f].converged) score.failure = "the fit on all data: " + full[f].failure;
        for (int fold = 0; fold < selection.folds && score.scored(); ++fold) {
            const auto& fold_fit = fold_fits[f * std::size_t(selection.folds) + std::size_t(fold)];
            if (!fold_fit.converged) {
                score.failure = "fold " + std::to_string(fold) + ": " + fold_fit.failure;
                break;
            }
            for (const auto& cell : data.cells) {
                if (fit::fold_of(std::size_t(cell.group), selection.folds) != fold) continue;
                const auto p = fold_fit.model.wdl(cell.cp, cell.situation(data.units[cell.unit]));
                for (std::size_t o = 0; o < 3; ++o) {
                    if (cell.outcomes[o] == 0) continue;
                    score.group_log_loss[std::size_t(cell.group)] +=
                        cell.outcomes[o] * fit::outcome_log_loss(p[o]);
                    score.group_positions[std::size_t(cell.group)] += cell.outcomes[o];
                }
            }
        }
        if (score.scored()) {
            const auto mean = stats::grouped_mean(score.group_log_loss, score.group_positions);
            score.log_loss = mean.value;
            score.log_loss_error = mean.error;
        }
        selection.forms.push_back(std::move(score));
    }
    bool any = false;
    for (std::size_t f = 0; f < selection.forms.size(); ++f) {
        if (!selection.forms[f].scored()) continue;
        if (!any || selection.forms[f].log_loss < selection.forms[selection.best].log_loss)
            selection.best = f;
        any = true;
    }
    if (!any) throw Error("no form could be fitted on every fold");
    const auto& best = selection.forms[selection.best];
    selection.positions = 0;
    for (double p : best.group_positions) selection.positions += p;
    selection.chosen = selection.best;
    for (std::size_t f = 0; f < selection.forms.size(); ++f) {
        auto& score = selection.forms[f];
        if (!score.scored()) continue;
        std::vector<double> differences(groups);
        for (std::size_t g = 0; g < groups; ++g)
            differences[g] = score.group_log_loss[g] - best.group_log_loss[g];
        const auto mean = stats::grouped_mean(differences, score.group_positions);
        score.versus_best = mean.value;
        score.versus_best_error = mean.error;
        const auto& chosen = selection.forms[selection.chosen];
        const int p = parameter_count(score.form), q = parameter_count(chosen.form);
        if (score.versus_best <= score.versus_best_error &&
            (p < q || (p == q && score.log_loss < chosen.log_loss)))
            selection.chosen = f;
    }
    return selection;
}

}  // namespace wdl::human
