#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/human/human_data.hpp"
#include "wdl/human/human_model.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/util/enum_names.hpp"

// The fitted model against what people use today (human/baselines.hpp) on held-out games, per
// rating band (docs/human-games.md, "The comparison").
namespace wdl::human {

enum class Predictor { Fitted, Lichess, Lc0, Stockfish };
inline constexpr int kPredictors = 4;
inline constexpr std::array<util::EnumName<Predictor>, kPredictors> kPredictorNames = {{
    {Predictor::Fitted, "fitted"},
    {Predictor::Lichess, "lichess"},
    {Predictor::Lc0, "lc0"},
    {Predictor::Stockfish, "stockfish"},
}};
std::string_view predictor_name(Predictor predictor);

// Positions by the mean of the two ratings in [low, high). The default bands are 300 points
// wide from 1200 to 2100 (the spread of a rating's meaning that lila's Win% note reports,
// 0.002 to 0.0038 per cp, happens over that range) with the tails pooled, where few people play.
struct RatingBand {
    int low = 0, high = 0;
    std::string label() const;  // "<1200", "1200-1500", "2100+", "all"
};
std::vector<RatingBand> default_rating_bands();

// A band's numbers are printed only with this many held-out positions in this many groups:
// fewer carry no standard error worth reading.
inline constexpr double kMinBandPositions = 2000;
inline constexpr int kMinBandGroups = 8;

struct PredictorScore {
    double log_loss = 0, log_loss_error = 0;      // of W/D/L, per position
    double score_loss = 0, score_loss_error = 0;  // binary cross-entropy of the expected score
    // Log-loss minus the fitted model's, paired by group (0 for the fitted model itself).
    double versus_fitted = 0, versus_fitted_error = 0;
};

// The reliability diagram's bins: [0, 0.1), [0.1, 0.2), ... of predicted expected score.
inline constexpr int kReliabilityBins = 10;

// Held-out positions whose predicted expected score falls into [low, high).
struct ReliabilityBin {
    double low = 0, high = 0;
    double positions = 0;
    double predicted = 0;                     // mean predicted expected score
    double observed = 0, observed_error = 0;  // mean score, its standard error over groups
    // The standard error of `predicted` from the fit's parameter uncertainty (delta method on
    // the jackknife covariance); 0 for a fixed formula (the baselines) or without a covariance.
    double predicted_error = 0;

    // Observed minus predicted has the variance of both: they come from disjoint groups.
    double combined_error() const;
    // Whether |observed - predicted| <= z combined_error.
    bool within(double z) const;
};

// Bins with fewer held-out positions are neither judged nor plotted: their means say little.
inline constexpr double kMinJudgedBinPositions = 100;

// Of a predictor's bins in a band with at least kMinJudgedBinPositions: how many, and how many
// lie outside their interval.
struct BinsOutside {
    int outside = 0, judged = 0;
};

// The joint test of a predictor's judged bins in a band: whether their observed scores depart
// from the predicted ones by more than the bins' errors allow, all bins at once (counting bins
// outside their intervals is no test: 1 in 20 is outside by chance). r the bins' observed minus
// predicted score, C its covariance: of the held-out games over groups (bins share games), plus
// the fitted model's own from its parameters' covariance; T = r' C^-1 r, and since C comes
// from G groups, T (G - k) / (k (G - 1)) is read as F(k, G - k) (Hotelling's T^2).
struct CalibrationTest {
    int bins = 0, groups = 0;  // k and G
    double statistic = 0;      // T
    double p_value = 1;        // P(T at least this large | the predictor calibrated)
    bool judged() const { return bins > 0 && groups > bins; }
};

struct BandComparison {
    RatingBand band;
    double positions = 0;
    int groups = 0;
    std::string verdict;   // why there are no numbers (too few games); empty when there are
    double draw_rate = 0;  // of the band's positions that the folds were fitted on (lichess's D)
    std::array<PredictorScore, kPredictors> scores{};
    std::array<std::vector<ReliabilityBin>, kPredictors> reliability{};
    std::array<CalibrationTest, kPredictors> calibration{};  // of the judged bins

    // At z standard errors (the normal quantile of the intervals' confidence).
    BinsOutside bins_outside(Predictor predictor, double z) const;
};

struct HumanComparison {
    HumanForm form = HumanForm::Flat;
    int folds = 0;
    std::vector<BandComparison> bands;  // the bands given, then "all"
    std::vector<std::string> failures;  // folds whose fit did not converge (left out)
};

// For each of `folds` folds of the groups: the model of `form` fitted on the others (from
// `start`, the fit on all data), every predictor scored on the fold's positions. `covariance`
// is the parameters' covariance of the fit on all groups (HumanUncertainty::covariance), for
// the fitted model's predicted_error; empty leaves it 0.
HumanComparison compare_held_out(const HumanData& data, const HumanModel& start, int folds,
                                 const model::WdlModel& stockfish,
                                 const std::vector<RatingBand>& bands,
                                 const std::vector<std::vector<double>>& covariance, int threads);

}  // namespace wdl::human
