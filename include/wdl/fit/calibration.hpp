#pragma once

#include <array>
#include <string>
#include <vector>

// How good W/D/L predictions are: scores of one prediction, and calibration (predicted against
// observed rates by bin of the predicted win rate and by material), for scoreWDL
// --crossValidate and compareWDL --counts.
namespace wdl::fit {

using Wdl = std::array<double, 3>;  // win, draw, loss

// Outcomes are 0 (win), 1 (draw), 2 (loss), as counts::Outcome.
// The Brier score: the sum over W, D, L of (p - observed)^2.
inline double brier_score(const Wdl& p, int outcome) {
    double sum = 0;
    for (int o = 0; o < 3; ++o) {
        double error = p[std::size_t(o)] - (o == outcome ? 1.0 : 0.0);
        sum += error * error;
    }
    return sum;
}

// The error of the expected score W + D / 2 against the outcome's 1, 1/2 or 0.
inline double expected_score_error(const Wdl& p, int outcome) {
    return (p[0] + 0.5 * p[1]) - (1.0 - 0.5 * outcome);
}

// Positions whose predictions fall into one bin, with mean predicted and observed W, D, L.
struct CalibrationBin {
    std::string label;  // "0.3-0.4" (predicted win rate) or "24-31" (material)
    double positions = 0;
    Wdl predicted{}, observed{};
};

// Sums of predictions and outcomes in 10 bins of predicted win rate (0.0-0.1 ... 0.9-1.0) and
// 10 material buckets of 8 (0-7 ... 72-79; higher material goes to the last).
class CalibrationTable {
  public:
    // `count` positions predicted `p`, with outcome 0 (win), 1 (draw) or 2 (loss).
    void add(const Wdl& p, int outcome, double count, int material);

    std::vector<CalibrationBin> by_predicted_win() const;
    std::vector<CalibrationBin> by_material() const;

  private:
    static constexpr int kBins = 10;
    static constexpr int kMaterialBucket = 8;
    struct Sums {
        double positions = 0;
        Wdl predicted{}, observed{};
    };
    static std::vector<CalibrationBin> bins_of(const std::array<Sums, kBins>& sums, bool by_win);

    std::array<Sums, kBins> by_win_{}, by_material_{};
};

}  // namespace wdl::fit
