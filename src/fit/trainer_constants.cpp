#include "wdl/fit/trainer_constants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "wdl/model/wdl_math.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/stats/golden_section.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::fit {
namespace {

// A probability below this counts as this, as in the fitter's objective.
constexpr double kSmallestProbability = 1e-14;

// The counts per internal eval, every mom added: all a one-curve formula sees.
std::vector<Cell> counts_by_eval(const std::vector<MomData>& data) {
    std::map<double, std::array<double, 3>> by_eval;
    for (const MomData& mom : data) {
        for (const Cell& cell : mom.cells) {
            auto& sums = by_eval[cell.eval];
            sums[0] += cell.wins;
            sums[1] += cell.draws;
            sums[2] += cell.losses;
        }
    }
    std::vector<Cell> cells;
    for (const auto& [eval, sums] : by_eval) cells.push_back({eval, sums[0], sums[1], sums[2]});
    return cells;
}

// The constant model's probabilities at x and their derivatives in (offset, scaling).
struct ModelPoint {
    std::array<double, 3> p;      // win, draw, loss
    std::array<double, 3> dp_da;  // by the offset
    std::array<double, 3> dp_db;  // by the scaling
};

ModelPoint model_point(double x, double a, double b) {
    double u = (x - a) / b, v = (-x - a) / b;
    double win = model::logistic(u), loss = model::logistic(v);
    double win_slope = win * (1 - win), loss_slope = loss * (1 - loss);
    ModelPoint point;
    point.p = {win, std::max(1 - win - loss, 0.0), loss};
    point.dp_da = {-win_slope / b, 0, -loss_slope / b};
    point.dp_db = {-win_slope * u / b, 0, -loss_slope * v / b};
    point.dp_da[1] = -point.dp_da[0] - point.dp_da[2];
    point.dp_db[1] = -point.dp_db[0] - point.dp_db[2];
    return point;
}

double negative_log_likelihood(const std::vector<Cell>& cells, double a, double b) {
    double sum = 0;
    for (const Cell& cell : cells) {
        auto p = model_point(cell.eval, a, b).p;
        sum -= cell.wins * std::log(std::max(p[0], kSmallestProbability)) +
               cell.draws * std::log(std::max(p[1], kSmallestProbability)) +
               cell.losses * std::log(std::max(p[2], kSmallestProbability));
    }
    return sum;
}

// The gradient of the negative log-likelihood and the Fisher information of (offset, scaling).
struct Curvature {
    std::array<double, 2> gradient{};
    std::array<std::array<double, 2>, 2> information{};
};

Curvature curvature(const std::vector<Cell>& cells, double a, double b) {
    Curvature result;
    for (const Cell& cell : cells) {
        auto point = model_point(cell.eval, a, b);
        std::array<double, 3> observed = {cell.wins, cell.draws, cell.losses};
        for (int k = 0; k < 3; ++k) {
            double p = std::max(point.p[std::size_t(k)], kSmallestProbability);
            double da = point.dp_da[std::size_t(k)], db = point.dp_db[std::size_t(k)];
            result.gradient[0] -= observed[std::size_t(k)] * da / p;
            result.gradient[1] -= observed[std::size_t(k)] * db / p;
            double n = cell.total() / p;
            result.information[0][0] += n * da * da;
            result.information[0][1] += n * da * db;
            result.information[1][1] += n * db * db;
        }
    }
    result.information[1][0] = result.information[0][1];
    return result;
}

// A start from the win rate's logit, nearly linear in x: logit(w) = (x - a) / b.
std::array<double, 2> starting_point(const std::vector<Cell>& cells) {
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const Cell& cell : cells) {
        double n = cell.total(), rate = cell.wins / n;
        if (rate <= 0 || rate >= 1) continue;
        double y = std::log(rate / (1 - rate));
        sw += n, sx += n * cell.eval, sy += n * y, sxx += n * cell.eval * cell.eval;
        sxy += n * cell.eval * y;
    }
    double slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
    if (!(slope > 0) || !std::isfinite(slope)) return {1, 1};
    double intercept = (sy - slope * sx) / sw;
    return {std::max(-intercept / slope, 1e-3), 1 / slope};
}

// Fisher scoring with step halving; returns (offset, scaling) and the information there.
// Throws wdl::Error when the search ends without converging.
std::pair<std::array<double, 2>, Curvature> fit_offset_scaling(const std::vector<Cell>& cells) {
    auto theta = starting_point(cells);
    double objective = negative_log_likelihood(cells, theta[0], theta[1]);
    Curvature at = curvature(cells, theta[0], theta[1]);
    for (int iteration = 0; iteration < 200; ++iteration) {
        const auto& i = at.information;
        double det = i[0][0] * i[1][1] - i[0][1] * i[1][0];
        if (!(det > 0)) break;
        std::array<double, 2> step = {-(i[1][1] * at.gradient[0] - i[0][1] * at.gradient[1]) / det,
                                      -(i[0][0] * at.gradient[1] - i[1][0] * at.gradient[0]) / det};
        double factor = 1;
        std::array<double, 2> next{};
        double next_objective = objective;
        for (int halving = 0; halving < 40; ++halving, factor /= 2) {
            next = {theta[0] + factor * step[0], theta[1] + factor * step[1]};
            if (next[1] <= 0) continue;
            next_objective = negative_log_likelihood(cells, next[0], next[1]);
            if (next_objective <= objective) break;
        }
        if (next[1] <= 0 || next_objective > objective) break;
        bool converged = std::abs(next[0] - theta[0]) < 1e-9 * (1 + std::abs(theta[0])) &&
                         std::abs(next[1] - theta[1]) < 1e-9 * (1 + std::abs(theta[1]));
        theta = next;
        objective = next_objective;
        at = curvature(cells, theta[0], theta[1]);
        if (converged) return {theta, at};
    }
    // The step found no lower objective: converged if the gradient vanishes there.
    double scale = 1e-6 * (1 + std::abs(objective));
    if (std::abs(at.gradient[0]) < scale && std::abs(at.gradient[1]) < scale) return {theta, at};
    throw Error("the fit of the trainers' offset and scaling did not converge");
}

// Texel's error: the squared distance of the expected score from the game score.
double texel_error(const std::vector<Cell>& cells, double scale) {
    double sum = 0;
    for (const Cell& cell : cells) {
        double expected = model::logistic(cell.eval / scale);
        sum += cell.wins * (1 - expected) * (1 - expected) +
               cell.draws * (0.5 - expected) * (0.5 - expected) + cell.losses * expected * expected;
    }
    return sum;
}

// The scale of least error, searched over log(scale) around a first guess.
double fit_score_scale(const std::vector<Cell>& cells, double guess) {
    return std::exp(stats::golden_section_minimum(
        [&cells](double log_scale) { return texel_error(cells, std::exp(log_scale)); },
        std::log(guess / 1000), std::log(guess * 1000)));
}

double texel_k(double score_scale) { return 400 / (score_scale * std::log(10.0)); }

struct FitWithInformation {
    TrainerFit fit;
    Curvature curvature;
};

FitWithInformation fit_with_information(const std::vector<MomData>& data) {
    auto cells = counts_by_eval(data);
    double wins = 0, draws = 0, losses = 0;
    for (const Cell& cell : cells) wins += cell.wins, draws += cell.draws, losses += cell.losses;
    if (wins + draws + losses <= 0)
        throw Error("the trainers' constants need positions; none were retained");
    if (wins <= 0 || losses <= 0 || draws <= 0)
        throw Error("the trainers' constants need wins, draws and losses among the positions");
    auto [theta, at] = fit_offset_scaling(cells);
    if (!std::isfinite(theta[0]) || !(theta[1] > 0))
        throw Error("the fit of the trainers' offset and scaling did not converge");
    FitWithInformation result{{theta[0], theta[1], 0}, at};
    result.fit.score_scale = fit_score_scale(cells, theta[1] + std::abs(theta[0]));
    return result;
}

std::vector<double> values_of(const TrainerFit& fit) {
    return {fit.offset, fit.scaling, fit.score_scale, texel_k(fit.score_scale)};
}

}  // namespace

TrainerFit fit_trainer_constants(const std::vector<MomData>& data) {
    return fit_with_information(data).fit;
}

TrainerConstants trainer_constants(const std::vector<MomData>& data, const GroupedData* grouped,
                                   int threads) {
    auto full = fit_with_information(data);
    TrainerConstants result;
    const char* names[] = {"offset", "scaling", "scoreScale", "texelK"};
    auto values = values_of(full.fit);
    for (std::size_t i = 0; i < values.size(); ++i)
        result.estimates.push_back({names[i], values[i], {}, {}, {}});
    double tail = (1 - result.confidence) / 2;
    if (!grouped || grouped->group_count() < 2) {
        // Positions taken as independent: the inverse Fisher information of (offset, scaling).
        const auto& i = full.curvature.information;
        double det = i[0][0] * i[1][1] - i[0][1] * i[1][0];
        if (det > 0) {
            double z = stats::normal_quantile(1 - tail);
            std::array<double, 2> variance = {i[1][1] / det, i[0][0] / det};
            for (std::size_t k = 0; k < 2; ++k) {
                auto& estimate = result.estimates[k];
                estimate.standard_error = std::sqrt(variance[k]);
                estimate.low = estimate.estimate - z * *estimate.standard_error;
                estimate.high = estimate.estimate + z * *estimate.standard_error;
            }
        }
        return result;
    }
    // The jackknife: one refit without each group.
    std::size_t groups = grouped->group_count();
    std::vector<std::optional<std::vector<double>>> refits(groups);
    util::parallel_for(groups, threads, [&](std::size_t, std::size_t g) {
        std::vector<double> weights(groups, 1.0);
        weights[g] = 0;
        // A group without which the data cannot determine the constants (it held every draw,
        // say) gives no replicate; the others still do.
        try {
            refits[g] = values_of(fit_trainer_constants(grouped->weighted(weights)));
        } catch (const Error&) {
        }
    });
    std::vector<std::vector<double>> replicates;
    for (auto& refit : refits)
        if (refit) replicates.push_back(std::move(*refit));
    result.groups = int(groups);
    result.failed_refits = int(groups - replicates.size());
    if (replicates.size() < 2) return result;
    double n = double(replicates.size());
    double t = stats::student_t_quantile(1 - tail, n - 1);
    for (std::size_t k = 0; k < result.estimates.size(); ++k) {
        double mean = 0, squares = 0;
        for (const auto& replicate : replicates) mean += replicate[k] / n;
        for (const auto& replicate : replicates) squares += std::pow(replicate[k] - mean, 2);
        auto& estimate = result.estimates[k];
        estimate.standard_error = std::sqrt((n - 1) / n * squares);
        estimate.low = estimate.estimate - t * *estimate.standard_error;
        estimate.high = estimate.estimate + t * *estimate.standard_error;
    }
    return result;
}

std::string trainer_constants_report(const TrainerConstants& constants) {
    auto value = [&](std::size_t k, const char* format) {
        const auto& estimate = constants.estimates[k];
        std::string text = fmt::format(fmt::runtime(format), estimate.estimate);
        if (estimate.low) {
            text += fmt::format(
                fmt::runtime(std::string(" ({:.0f}% interval ") + format + " .. " + format + ")"),
                100 * constants.confidence, *estimate.low, *estimate.high);
        }
        return text;
    };
    std::string basis =
        constants.groups > 0
            ? fmt::format("jackknife over {} groups{}", constants.groups,
                          constants.failed_refits > 0
                              ? fmt::format(", {} of whose refits did not converge",
                                            constants.failed_refits)
                              : "")
            : "offset and scaling: Fisher information, positions taken as independent (too "
              "narrow: the positions of a game are not; scan with --groups for intervals of "
              "every constant)";
    std::string report =
        "Trainer constants (every retained position, one curve for all material, "
        "internal units; intervals: " +
        basis + "):\n";
    report += "  win = 1 / (1 + exp((offset - x) / scaling)), loss the same at -x:\n";
    report += "    offset  = " + value(0, "{:.1f}") + "\n";
    report += "    scaling = " + value(1, "{:.1f}") + "\n";
    report += fmt::format(
        "    nnue-pytorch (LossParams): out_offset {0:.0f}, out_scaling {1:.0f} for the data's "
        "scores, in_offset {0:.0f}, in_scaling {1:.0f} for the net's output; bullet's win-rate "
        "model: (score - {0:.0f}) / {1:.0f}\n",
        constants.estimates[0].estimate, constants.estimates[1].estimate);
    report += "  expected score = 1 / (1 + exp(-x / scale)), least squares (Texel):\n";
    report += "    scale   = " + value(2, "{:.1f}") + " (bullet's eval_scale)\n";
    report += "    Texel K = " + value(3, "{:.4f}") + " (of 1 / (1 + 10^(-K x / 400)))\n";
    return report;
}

nlohmann::ordered_json trainer_constants_json(const TrainerConstants& constants) {
    nlohmann::ordered_json json;
    json["units"] = "internal";
    json["interval"] = constants.groups > 0 ? "jackknife" : "fisher";
    json["groups"] = constants.groups;
    json["failedRefits"] = constants.failed_refits;
    json["confidence"] = constants.confidence;
    for (const auto& estimate : constants.estimates) {
        nlohmann::ordered_json entry = {{"estimate", estimate.estimate}};
        if (estimate.standard_error) {
            entry["standardError"] = *estimate.standard_error;
            entry["low"] = *estimate.low;
            entry["high"] = *estimate.high;
        }
        json[estimate.name] = entry;
    }
    return json;
}

}  // namespace wdl::fit
