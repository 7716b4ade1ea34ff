#include "wdl/fit/calibration.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace wdl::fit {

void CalibrationTable::add(const Wdl& p, int outcome, double count, int material) {
    auto add_to = [&](Sums& sums) {
        sums.positions += count;
        for (std::size_t o = 0; o < 3; ++o) sums.predicted[o] += count * p[o];
        sums.observed[std::size_t(outcome)] += count;
    };
    add_to(by_win_[std::size_t(std::clamp(int(p[0] * kBins), 0, kBins - 1))]);
    add_to(by_material_[std::size_t(std::clamp(material / kMaterialBucket, 0, kBins - 1))]);
}

std::vector<CalibrationBin> CalibrationTable::by_predicted_win() const {
    return bins_of(by_win_, true);
}

std::vector<CalibrationBin> CalibrationTable::by_material() const {
    return bins_of(by_material_, false);
}

std::vector<CalibrationBin> CalibrationTable::bins_of(const std::array<Sums, kBins>& sums,
                                                      bool by_win) {
    std::vector<CalibrationBin> result;
    for (std::size_t i = 0; i < sums.size(); ++i) {
        if (sums[i].positions == 0) continue;
        CalibrationBin bin;
        bin.label = by_win
                        ? fmt::format("{:.1f}-{:.1f}", double(i) / kBins, double(i + 1) / kBins)
                        : fmt::format("{}-{}", i * kMaterialBucket, (i + 1) * kMaterialBucket - 1);
        bin.positions = sums[i].positions;
        for (std::size_t o = 0; o < 3; ++o) {
            bin.predicted[o] = sums[i].predicted[o] / sums[i].positions;
            bin.observed[o] = sums[i].observed[o] / sums[i].positions;
        }
        result.push_back(bin);
    }
    return result;
}

}  // namespace wdl::fit
