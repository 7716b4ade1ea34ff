#include "wdl/human/human_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "wdl/util/error.hpp"

namespace wdl::human {

int HumanData::groups_with_positions() const {
    std::vector<char> seen(std::size_t(std::max(groups, 1)), 0);
    for (const auto& cell : cells)
        if (cell.group >= 0 && cell.group < groups) seen[std::size_t(cell.group)] = 1;
    return int(std::count(seen.begin(), seen.end(), 1));
}

namespace {

// A count file's cell without its move number (the fit does not read it), packed so that
// sorting brings together what the fit counts as one cell, a class's groups one after the
// other: from the most significant bit, speed 3, group 26, material 8, rating bin 7,
// opponent's rating bin 7, eval 11 (+1024) and the outcome 2. 16 bytes with the count.
struct GatheredCell {
    std::uint64_t key = 0;
    std::uint64_t count = 0;
    friend bool operator<(const GatheredCell& x, const GatheredCell& y) { return x.key < y.key; }
};

constexpr int kOutcomeBits = 2, kEvalBits = 11, kRatingBits = 7, kMaterialBits = 8, kGroupBits = 26;
constexpr int kGroupShift = kOutcomeBits + kEvalBits + 2 * kRatingBits + kMaterialBits;
constexpr int kSpeedShift = kGroupShift + kGroupBits;

std::uint64_t field(std::uint64_t& packed, int bits) {
    const std::uint64_t value = packed & ((std::uint64_t{1} << bits) - 1);
    packed >>= bits;
    return value;
}

// The centre of a rating bin, as the count file keeps ratings.
int bin_centre(std::uint64_t bin) { return counts::bin_rating(int(bin) * counts::kRatingBinWidth); }

// Gathers the cells of a count file (mates counted apart), then makes one HumanData per speed
// class of them.
class CellGatherer {
  public:
    void reserve(std::size_t cells) { gathered_.reserve(cells); }

    void add(const counts::HumanCell& cell) {
        const auto& key = cell.key;
        const auto speed = std::size_t(key.speed);
        seen_[speed] = true;
        if (key.position.eval == counts::kMateEval || key.position.eval == -counts::kMateEval) {
            mate_positions_[speed] += double(cell.count);
            return;
        }
        if (cell.group >= (1 << kGroupBits))
            throw Error(fmt::format("group {} is beyond the {} groups humanWDL reads", cell.group,
                                    1 << kGroupBits));
        std::uint64_t packed = std::uint64_t(key.speed);
        const auto append = [&packed](std::uint64_t value, int bits) {
            packed = packed << bits | value;
        };
        append(std::uint64_t(cell.group), kGroupBits);
        append(std::uint64_t(key.position.material), kMaterialBits);
        append(std::uint64_t(key.rating / counts::kRatingBinWidth), kRatingBits);
        append(std::uint64_t(key.opponent_rating / counts::kRatingBinWidth), kRatingBits);
        append(std::uint64_t(key.position.eval + 1024), kEvalBits);
        append(std::uint64_t(key.position.result), kOutcomeBits);
        gathered_.push_back({packed, cell.count});
    }

    // The groups holding positions are numbered 0, 1, ... in the file's order per class: what
    // is kept per group then grows with the data, not with a header's count of groups.
    std::vector<HumanData> finish() {
        std::sort(gathered_.begin(), gathered_.end());
        std::map<counts::SpeedClass, HumanData> by_speed;
        for (std::size_t speed = 0; speed < seen_.size(); ++speed)
            if (seen_[speed]) {
                auto& data = by_speed[counts::SpeedClass(speed)];
                data.speed = counts::SpeedClass(speed);
                data.groups = 0;
                data.mate_positions = mate_positions_[speed];
            }
        // Each class's cells counted first, so that their vectors are allocated once.
        std::array<std::size_t, counts::kSpeedClasses> distinct{};
        for (std::size_t i = 0; i < gathered_.size(); ++i)
            if (i == 0 || gathered_[i].key >> kOutcomeBits != gathered_[i - 1].key >> kOutcomeBits)
                ++distinct[std::size_t(gathered_[i].key >> kSpeedShift)];
        for (auto& [speed, data] : by_speed) data.cells.reserve(distinct[std::size_t(speed)]);
        // material, rating + opponent's, an eval shown as 0.00
        std::map<std::tuple<int, int, bool>, std::uint32_t> units;
        std::uint64_t previous_group = ~std::uint64_t{0};  // speed and group
        for (std::size_t i = 0; i < gathered_.size();) {
            const std::uint64_t cell_key = gathered_[i].key >> kOutcomeBits;
            std::uint64_t packed = gathered_[i].key;
            std::array<double, 3> outcomes{};
            for (; i < gathered_.size() && gathered_[i].key >> kOutcomeBits == cell_key; ++i)
                outcomes[gathered_[i].key & 3] += double(gathered_[i].count);
            field(packed, kOutcomeBits);
            const int cp = int(field(packed, kEvalBits)) - 1024;
            const int opponent_rating = bin_centre(field(packed, kRatingBits));
            const int rating = bin_centre(field(packed, kRatingBits));
            const int material = int(field(packed, kMaterialBits));
            auto& data = by_speed[counts::SpeedClass(packed >> kGroupBits)];
            if (packed >> kGroupBits != previous_group >> kGroupBits) units.clear();
            if (packed != previous_group) ++data.groups;
            previous_group = packed;
            const bool zero_eval = is_zero_eval(cp);
            const auto [unit, new_unit] = units.try_emplace(
                {material, rating + opponent_rating, zero_eval}, std::uint32_t(data.units.size()));
            if (new_unit)
                data.units.push_back(
                    {material, ((rating + opponent_rating) / 2.0 - kLevelCentre) / kRatingScale,
                     zero_eval});
            if (data.cells.empty()) data.rating_min = data.rating_max = rating;
            data.rating_min = std::min(data.rating_min, rating);
            data.rating_max = std::max(data.rating_max, rating);
            data.cells.push_back(
                {unit->second, data.groups - 1, cp, rating, opponent_rating, outcomes});
            data.positions += outcomes[0] + outcomes[1] + outcomes[2];
        }
        gathered_ = {};
        std::vector<HumanData> result;
        for (auto& [speed, data] : by_speed) {
            data.groups = std::max(1, data.groups);
            result.push_back(std::move(data));
        }
        return result;
    }

  private:
    std::vector<GatheredCell> gathered_;
    std::array<bool, counts::kSpeedClasses> seen_{};
    std::array<double, counts::kSpeedClasses> mate_positions_{};
};

}  // namespace

std::vector<HumanData> human_data_by_speed(const counts::HumanCounts& counts) {
    CellGatherer gatherer;
    gatherer.reserve(counts.cells.size());
    for (const auto& cell : counts.cells) gatherer.add(cell);
    return gatherer.finish();
}

HumanDataRead read_human_data(const std::filesystem::path& file, std::size_t memory_limit_bytes) {
    HumanDataRead read;
    std::optional<CellGatherer> gatherer;
    std::size_t announced = 0, visited = 0;
    counts::visit_human_counts(
        file,
        [&](int groups, std::size_t cells) {
            read.groups = groups;
            announced = cells;
            // Groups hold about equal shares of the cells (a hash of each game chooses them).
            const double bytes_per_group = double(cells) * kBytesPerCountCell / groups;
            const double fitting = double(memory_limit_bytes) / std::max(bytes_per_group, 1.0);
            read.groups_kept = int(std::min<double>(groups, fitting));
            if (read.groups_kept < 2)
                throw Error(fmt::format(
                    "{}: its {} cells need about {} MB in memory, and a memory limit of {} MB "
                    "holds fewer than 2 of its {} game groups; raise --memoryLimit",
                    file.string(), cells, (cells * kBytesPerCountCell) >> 20,
                    memory_limit_bytes >> 20, groups));
            gatherer.emplace();
            // The header's count is trusted with memory only up to the limit.
            gatherer->reserve(std::size_t(
                std::min(double(cells), 1.05 * fitting * double(cells) / groups + 1024)));
        },
        [&](const counts::HumanCell& cell) {
            // The limit is kept by the header's count: a file holding more cells is refused
            // when it passes it, not when it has filled the memory.
            if (++visited > announced)
                throw Error(fmt::format("{} holds more cells than its header announces ({})",
                                        file.string(), announced));
            if (cell.group < read.groups_kept)
                gatherer->add(cell);
            else
                read.positions_left_out += double(cell.count);
        });
    read.by_speed = gatherer->finish();
    return read;
}

}  // namespace wdl::human
