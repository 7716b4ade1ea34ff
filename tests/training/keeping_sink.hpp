#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "wdl/training/training_data.hpp"

// What the readers' tests see of a reading: of the units ended whole, what `describe` makes of
// each position (a unit dropped keeps nothing), and where each unit began.
namespace wdl::training::test {

template <class Kept>
class KeepingSink : public PositionSink {
  public:
    explicit KeepingSink(std::function<Kept(const TrainingPosition&)> describe)
        : describe_(std::move(describe)) {}

    std::vector<Kept> kept;
    std::vector<std::uint64_t> units;  // the offsets they began at
    int dropped = 0;

    void begin_unit(std::uint64_t offset) override { units.push_back(offset); }
    void see(const TrainingPosition& position) override { pending_.push_back(describe_(position)); }
    void end_unit() override {
        kept.insert(kept.end(), pending_.begin(), pending_.end());
        pending_.clear();
    }
    void drop_unit() override {
        ++dropped;
        pending_.clear();
    }

  private:
    std::function<Kept(const TrainingPosition&)> describe_;
    std::vector<Kept> pending_;
};

}  // namespace wdl::training::test
