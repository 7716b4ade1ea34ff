#include "wdl/human/comparison.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "wdl/fit/folds.hpp"
#include "wdl/fit/objective.hpp"
#include "wdl/human/baselines.hpp"
#include "wdl/human/human_fit.hpp"
#include "wdl/stats/distributions.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::human {

std::string_view predictor_name(Predictor predictor) {
    return util::name_of(kPredictorNames, predictor);
}

std::string RatingBand::label() const {
    if (low <= 0 && high >= 10000) return "all";
    if (low <= 0) return fmt::format("<{}", high);
    if (high >= 10000) return fmt::format("{}+", low);
    return fmt::format("{}-{}", low, high);
}

std::vector<RatingBand> default_rating_bands() {
    return {{0, 1200}, {1200, 1500}, {1500, 1800}, {1800, 2100}, {2100, 10000}};
}

double ReliabilityBin::combined_error() const {
    return std::hypot(observed_error, predicted_error);
}

bool ReliabilityBin::within(double z) const {
    return std::abs(observed - predicted) <= z * combined_error();
}

BinsOutside BandComparison::bins_outside(Predictor predictor, double z) const {
    BinsOutside count;
    for (const auto& bin : reliability[std::size_t(predictor)]) {
        if (bin.positions < kMinJudgedBinPositions) continue;
        ++count.judged;
        count.outside += !bin.within(z);
    }
    return count;
}

namespace {

// Sums per group of one band and predictor.
struct GroupSums {
    std::vector<double> log_loss, score_loss, positions;
    // [bin][group]
    std::array<std::vector<double>, kReliabilityBins> bin_predicted, bin_observed, bin_positions;
    // [bin][parameter]: positions times the expected score's gradient in the fitted model's
    // parameters (left 0 for the baselines, whose formulas have no fitted parameters).
    std::array<std::vector<double>, kReliabilityBins> bin_gradient;
    GroupSums(std::size_t groups, std::size_t parameters)
        : log_loss(groups), score_loss(groups), positions(groups) {
        for (int b = 0; b < kReliabilityBins; ++b) {
            bin_predicted[std::size_t(b)].assign(groups, 0);
            bin_observed[std::size_t(b)].assign(groups, 0);
            bin_positions[std::size_t(b)].assign(groups, 0);
            bin_gradient[std::size_t(b)].assign(parameters, 0);
        }
    }
};

double score_of(const std::array<double, 3>& wdl) { return wdl[0] + wdl[1] / 2; }

// A fitted model moved by a step each way in each parameter, for the expected score's gradient
// by central differences; made once per fold, not per position.
struct PerturbedModels {
    static constexpr double kRelativeStep = 1e-5;  // of max(1, |parameter|)
    std::vector<HumanModel> raised, lowered;
    std::vector<double> widths;  // raised minus lowered

    explicit PerturbedModels(const HumanModel& model) {
        for (std::size_t i = 0; i < model.parameters.size(); ++i) {
            const double step = kRelativeStep * std::max(1.0, std::abs(model.parameters[i]));
            raised.push_back(model);
            lowered.push_back(model);
            raised.back().parameters[i] += step;
            lowered.back().parameters[i] -= step;
            // The width actually stepped, after the sums' rounding.
            widths.push_back(raised.back().parameters[i] - lowered.back().parameters[i]);
        }
    }

    void score_gradient(double cp, const Situation& at, std::vector<double>& gradient) const {
        for (std::size_t i = 0; i < widths.size(); ++i)
            gradient[i] =
                (score_of(raised[i].wdl(cp, at)) - score_of(lowered[i].wdl(cp, at))) / widths[i];
    }
};

// x^T sigma y: the covariance of two predictions whose gradients in the parameters are x and
// y (the variance of one, for x = y).
double delta_method_covariance(const std::vector<double>& x, const std::vector<double>& y,
                               const std::vector<std::vector<double>>& covariance) {
    double product = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t j = 0; j < y.size(); ++j) product += x[i] * covariance[i][j] * y[j];
    return product;
}

double mean_rating(const HumanCell& cell) { return (cell.rating + cell.opponent_rating) / 2.0; }

bool in_band(const RatingBand& band, double rating) {
    return rating >= band.low && rating < band.high;
}

// The joint calibration test of the bins of `sums` with at least kMinJudgedBinPositions;
// `covariance` is the fitted model's parameters' (empty for a fixed formula), whose error
// each fold's fit carries times fold_variance_factor, as the bins' predicted_error.
CalibrationTest calibration_test(const GroupSums& sums,
                                 const std::vector<std::vector<double>>& covariance,
                                 double fold_variance_factor) {
    std::vector<std::size_t> bins;
    std::vector<double> totals;
    for (std::size_t i = 0; i < std::size_t(kReliabilityBins); ++i) {
        double positions = 0;
        for (double n : sums.bin_positions[i]) positions += n;
        if (positions < kMinJudgedBinPositions) continue;
        bins.push_back(i);
        totals.push_back(positions);
    }
    CalibrationTest test;
    test.bins = int(bins.size());
    for (double n : sums.positions) test.groups += n > 0;
    if (!test.judged()) return test;
    const auto k = Eigen::Index(bins.size());
    Eigen::VectorXd residual(k);
    for (Eigen::Index j = 0; j < k; ++j) {
        const std::size_t i = bins[std::size_t(j)];
        double sum = 0;
        for (std::size_t g = 0; g < sums.positions.size(); ++g)
            sum += sums.bin_observed[i][g] - sums.bin_predicted[i][g];
        residual[j] = sum / totals[std::size_t(j)];
    }
    // Each group's deviation from the residuals (the ratio estimator's linearization, as
    // stats::grouped_mean), and their products summed over the groups.
    Eigen::MatrixXd residual_covariance = Eigen::MatrixXd::Zero(k, k);
    for (std::size_t g = 0; g < sums.positions.size(); ++g) {
        if (sums.positions[g] == 0) continue;
        Eigen::VectorXd deviation(k);
        for (Eigen::Index j = 0; j < k; ++j) {
            const std::size_t i = bins[std::size_t(j)];
            deviation[j] = (sums.bin_observed[i][g] - sums.bin_predicted[i][g] -
                            residual[j] * sums.bin_positions[i][g]) /
                           totals[std::size_t(j)];
        }
        residual_covariance += deviation * deviation.transpose();
    }
    residual_covariance *= double(test.groups) / double(test.groups - 1);
    if (!covariance.empty())
        for (Eigen::Index j = 0; j < k; ++j)
            for (Eigen::Index m = 0; m < k; ++m)
                residual_covariance(j, m) +=
                    fold_variance_factor *
                    delta_method_covariance(sums.bin_gradient[bins[std::size_t(j)]],
                                            sums.bin_gradient[bins[std::size_t(m)]], covariance) /
                    (totals[std::size_t(j)] * totals[std::size_t(m)]);
    const Eigen::LDLT<Eigen::MatrixXd> factored(residual_covariance);
    if (factored.info() != Eigen::Success || !factored.isPositive()) {
        test.bins = 0;  // a covariance that cannot be inverted judges nothing
        return test;
    }
    test.statistic = residual.dot(factored.solve(residual));
    const double groups = test.groups, count = test.bins;
    test.p_value = stats::f_upper_tail(test.statistic * (groups - count) / (count * (groups - 1)),
                                       count, groups - count);
    return test;
}

double binary_cross_entropy(double predicted, double observed) {
    return observed * fit::outcome_log_loss(predicted) +
           (1 - observed) * fit::outcome_log_loss(1 - predicted);
}

}  // namespace

HumanComparison compare_held_out(const HumanData& data, const HumanModel& start, int folds,
                                 const model::WdlModel& stockfish,
                                 const std::vector<RatingBand>& given_bands,
                                 const std::vector<std::vector<double>>& covariance, int threads) {
    const std::size_t parameters = start.parameters.size();
    if (!covariance.empty() && covariance.size() != parameters)
        throw Error(fmt::format("a covariance of {} parameters for a model of {}",
                                covariance.size(), parameters));
    HumanComparison comparison;
    comparison.form = start.form;
    comparison.folds = std::clamp(folds, 2, std::max(2, data.groups_with_positions()));
    std::vector<RatingBand> bands = given_bands;
    bands.push_back({0, 10000});
    const std::size_t groups = std::size_t(data.groups);

    std::vector<HumanFit> fits(std::size_t(comparison.folds));
    util::parallel_for(fits.size(), threads, [&](std::size_t, std::size_t fold) {
        fits[fold] =
            fit_human_model(data, start.form,
                            fold_weights(data.groups, comparison.folds, int(fold), false), &start);
    });
    // Each band's draw rate on the positions each fold was fitted on, for lichess's W/D/L.
    std::vector<std::vector<double>> drawn(fits.size(), std::vector<double>(bands.size())),
        counted = drawn;
    for (const auto& cell : data.cells)
        for (std::size_t b = 0; b < bands.size(); ++b) {
            if (!in_band(bands[b], mean_rating(cell))) continue;
            for (std::size_t fold = 0; fold < fits.size(); ++fold) {
                if (fit::fold_of(std::size_t(cell.group), comparison.folds) == int(fold)) continue;
                drawn[fold][b] += cell.outcomes[1];
                counted[fold][b] += cell.positions();
            }
        }
    std::vector<std::array<GroupSums, kPredictors>> sums;
    for (std::size_t b = 0; b < bands.size(); ++b)
        sums.push_back({GroupSums(groups, parameters), GroupSums(groups, parameters),
                        GroupSums(groups, parameters), GroupSums(groups, parameters)});
    // The gradients are needed only for a covariance to multiply.
    std::vector<PerturbedModels> perturbed;
    if (!covariance.empty())
        for (const auto& fold_fit : fits) perturbed.emplace_back(fold_fit.model);
    std::vector<double> gradient(parameters);
    for (std::size_t fold = 0; fold < fits.size(); ++fold)
        if (!fits[fold].converged)
            comparison.failures.push_back("fold " + std::to_string(fold) + ": " +
                                          fits[fold].failure);
    for (const auto& cell : data.cells) {
        const std::size_t fold =
            std::size_t(fit::fold_of(std::size_t(cell.group), comparison.folds));
        if (!fits[fold].converged) continue;
        const Situation at = cell.situation(data.units[cell.unit]);
        if (!perturbed.empty()) perturbed[fold].score_gradient(cell.cp, at, gradient);
        for (std::size_t b = 0; b < bands.size(); ++b) {
            if (!in_band(bands[b], mean_rating(cell))) continue;
            const double draw_rate = counted[fold][b] > 0 ? drawn[fold][b] / counted[fold][b] : 0;
            const std::array<std::array<double, 3>, kPredictors> predictions = {
                fits[fold].model.wdl(cell.cp, at), lichess_wdl(cell.cp, draw_rate),
                lc0_wdl(cell.cp, at.rating, at.opponent_rating),
                stockfish_wdl(stockfish, cell.cp, at.material)};
            for (std::size_t p = 0; p < std::size_t(kPredictors); ++p) {
                const auto& wdl = predictions[p];
                // lichess's expected score is its Win% itself, not the W/D/L made of it.
                const double expected = p == std::size_t(Predictor::Lichess)
                                            ? lichess_expected_score(cell.cp)
                                            : score_of(wdl);
                const int bin =
                    std::clamp(int(expected * kReliabilityBins), 0, kReliabilityBins - 1);
                auto& s = sums[b][p];
                const std::size_t g = std::size_t(cell.group);
                if (p == std::size_t(Predictor::Fitted) && !perturbed.empty())
                    for (std::size_t i = 0; i < parameters; ++i)
                        s.bin_gradient[std::size_t(bin)][i] += cell.positions() * gradient[i];
                for (std::size_t o = 0; o < 3; ++o) {
                    const double n = cell.outcomes[o];
                    if (n == 0) continue;
                    const double observed = 1 - 0.5 * double(o);
                    s.log_loss[g] += n * fit::outcome_log_loss(wdl[o]);
                    s.score_loss[g] += n * binary_cross_entropy(expected, observed);
                    s.positions[g] += n;
                    s.bin_predicted[std::size_t(bin)][g] += n * expected;
                    s.bin_observed[std::size_t(bin)][g] += n * observed;
                    s.bin_positions[std::size_t(bin)][g] += n;
                }
            }
        }
    }
    // Each fold's fit sees (folds - 1) / folds of the groups: its variance is the full fit's
    // times folds / (folds - 1). The folds' fits share most of their data, so their errors are
    // treated as one shared error (not averaging out over folds): the conservative reading.
    const double fold_variance_factor = double(comparison.folds) / double(comparison.folds - 1);
    const std::vector<std::vector<double>> no_covariance;
    for (std::size_t b = 0; b < bands.size(); ++b) {
        BandComparison band;
        band.band = bands[b];
        const auto& fitted = sums[b][0];
        for (std::size_t g = 0; g < groups; ++g) {
            band.positions += fitted.positions[g];
            band.groups += fitted.positions[g] > 0;
        }
        double drawn_all = 0, counted_all = 0;
        for (std::size_t fold = 0; fold < fits.size(); ++fold) {
            drawn_all += drawn[fold][b];
            counted_all += counted[fold][b];
        }
        band.draw_rate = counted_all > 0 ? drawn_all / counted_all : 0;
        if (band.positions < kMinBandPositions || band.groups < kMinBandGroups)
            band.verdict =
                fmt::format("too few games to say: {:.0f} held-out positions in {} groups",
                            band.positions, band.groups);
        for (std::size_t p = 0; p < std::size_t(kPredictors); ++p) {
            const auto& s = sums[b][p];
            auto& score = band.scores[p];
            const auto log_loss = stats::grouped_mean(s.log_loss, s.positions);
            const auto score_loss = stats::grouped_mean(s.score_loss, s.positions);
            std::vector<double> differences(groups);
            for (std::size_t g = 0; g < groups; ++g)
                differences[g] = s.log_loss[g] - fitted.log_loss[g];
            const auto versus = stats::grouped_mean(differences, s.positions);
            score = {log_loss.value,   log_loss.error, score_loss.value,
                     score_loss.error, versus.value,   versus.error};
            for (int bin = 0; bin < kReliabilityBins; ++bin) {
                const std::size_t i = std::size_t(bin);
                ReliabilityBin reliability{double(bin) / kReliabilityBins,
                                           double(bin + 1) / kReliabilityBins};
                double predicted = 0;
                for (std::size_t g = 0; g < groups; ++g) {
                    reliability.positions += s.bin_positions[i][g];
                    predicted += s.bin_predicted[i][g];
                }
                if (reliability.positions == 0) continue;
                reliability.predicted = predicted / reliability.positions;
                const auto observed = stats::grouped_mean(s.bin_observed[i], s.bin_positions[i]);
                reliability.observed = observed.value;
                reliability.observed_error = observed.error;
                if (!covariance.empty()) {
                    std::vector<double> mean_gradient = s.bin_gradient[i];
                    for (double& component : mean_gradient) component /= reliability.positions;
                    // The covariance is positive semi-definite; max() only absorbs rounding.
                    reliability.predicted_error =
                        std::sqrt(fold_variance_factor *
                                  std::max(0.0, delta_method_covariance(
                                                    mean_gradient, mean_gradient, covariance)));
                }
                band.reliability[p].push_back(reliability);
            }
            band.calibration[p] = calibration_test(
                s, p == std::size_t(Predictor::Fitted) ? covariance : no_covariance,
                fold_variance_factor);
        }
        comparison.bands.push_back(std::move(band));
    }
    return comparison;
}

}  // namespace wdl::human
