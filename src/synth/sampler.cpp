#include "wdl/synth/sampler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "wdl/counts/count_file.hpp"
#include "wdl/counts/grouping.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/parallel_for.hpp"

namespace wdl::synth {

model::WdlModel stockfish_model() {
    const auto* published = model::find_published_model("sf18");
    if (!published) throw std::logic_error("the registry of models lacks sf18");
    return published->model;
}

PositionShape SyntheticPositions::draw(stats::Random& random) const {
    double u = random.uniform();
    int first_move = 5 + int(random.below(8));
    double length = 20 + 45 * random.exponential();
    PositionShape shape;
    shape.move = std::min(200, first_move + int(u * length));
    double end_material = 4 + 56 * random.uniform();
    double material = 78 - (78 - end_material) * std::pow(u, 1.3) + 1.5 * random.normal();
    shape.material = std::clamp(int(std::lround(material)), 0, 78);
    double cp = std::round((25 + 225 * u * u) * random.student_t(3));
    int clamped = int(std::clamp(cp, double(-counts::kMaxEval), double(counts::kMaxEval)));
    shape.eval = counts::bin_eval(clamped, bin_width_);
    return shape;
}

CountFilePositions::CountFilePositions(const std::filesystem::path& file) {
    std::map<std::tuple<int, int, int>, std::uint64_t> counts;
    counts::read_count_file(file, [&](const counts::PositionKey& key, std::int64_t count) {
        counts[{key.move, key.material, key.eval}] += std::uint64_t(count);
    });
    std::uint64_t total = 0;
    for (const auto& [shape, count] : counts) {
        if (count == 0) continue;
        total += count;
        shapes_.push_back({std::get<0>(shape), std::get<1>(shape), std::get<2>(shape)});
        cumulative_.push_back(total);
    }
    if (total == 0)
        throw Error(fmt::format("{} holds no counts to draw positions from.", file.string()));
}

PositionShape CountFilePositions::draw(stats::Random& random) const {
    std::uint64_t pick = random.below(cumulative_.back());
    auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), pick);
    return shapes_[std::size_t(it - cumulative_.begin())];
}

std::array<double, 3> outcome_probabilities(const model::WdlModel& model,
                                            const model::Normalization& normalization,
                                            const PositionShape& shape) {
    double eval = normalization.to_internal(shape.eval, shape.move, shape.material);
    // The model clamps its mom itself (Stockfish's material to 17..78; a model given by its
    // coefficients alone, not at all).
    double mom = model.mom_type == model::MomType::Move ? shape.move : shape.material;
    double win = model.win(eval, mom), loss = model.loss(eval, mom);
    double draw = 1 - win - loss;
    if (draw < -1e-12) {
        throw Error(
            fmt::format("the model is no distribution at {} {}: a = {} is negative, so "
                        "W + L > 1.",
                        model::mom_type_name(model.mom_type), mom, model.a(mom)));
    }
    return {win, std::max(draw, 0.0), loss};
}

namespace {

constexpr std::uint64_t kChunkPositions = std::uint64_t{1} << 18;

counts::Outcome draw_outcome(stats::Random& random, const std::array<double, 3>& p) {
    double u = random.uniform();
    if (u < p[0]) return counts::Outcome::Win;
    if (u < p[0] + p[1]) return counts::Outcome::Draw;
    return counts::Outcome::Loss;
}

std::uint64_t key_of(counts::Outcome result, const PositionShape& shape) {
    return counts::pack_key({result, shape.move, shape.material, shape.eval});
}

// A position of the source given its result: a draw accepted with the model's probability of
// that result there. A result drawn with probability P is accepted after 1/P tries on average,
// so the tries per position average 3; a model that almost never gives it would loop long.
template <typename Probabilities>
PositionShape draw_given(const PositionSource& source, stats::Random& random,
                         counts::Outcome result, Probabilities&& probabilities) {
    constexpr int kMaxTries = 10000000;
    for (int tries = 0; tries < kMaxTries; ++tries) {
        PositionShape shape = source.draw(random);
        if (random.uniform() < probabilities(shape)[std::size_t(result)]) return shape;
    }
    throw Error(
        fmt::format("no position with result {} in {} draws: the model almost never "
                    "gives it on these positions.",
                    counts::outcome_letter(result), kMaxTries));
}

// The positions of one chunk, drawn from its own stream so that chunks can be drawn on any
// thread in any order. Returns the number of games.
std::uint64_t sample_chunk(const SamplerSettings& settings, const PositionSource& source,
                           std::uint64_t chunk, std::uint64_t positions,
                           counts::PositionCounts& counts) {
    std::uint64_t stream = stats::stream_seed(settings.seed, chunk);
    stats::Random random(stream);
    auto group_of = [&](std::uint64_t game) {
        return settings.groups > 0 ? counts::group_of_drawn_game(stream, game, settings.groups) : 0;
    };
    auto probabilities = [&](const PositionShape& shape) {
        return outcome_probabilities(settings.model, settings.normalization, shape);
    };
    if (!settings.games) {
        for (std::uint64_t i = 0; i < positions; ++i) {
            PositionShape shape = source.draw(random);
            counts.add(key_of(draw_outcome(random, probabilities(shape)), shape), group_of(i));
        }
        return positions;
    }
    std::uint64_t games = 0;
    int half = std::max(1, settings.positions_per_game / 2);
    for (std::uint64_t drawn = 0; drawn < positions; ++games) {
        std::uint64_t length = std::min<std::uint64_t>(
            positions - drawn,
            std::uint64_t(half + int(random.below(std::uint64_t(2 * half + 1)))));
        int group = group_of(games);
        PositionShape shape = source.draw(random);
        counts::Outcome result = draw_outcome(random, probabilities(shape));
        counts.add(key_of(result, shape), group);
        for (std::uint64_t i = 1; i < length; ++i) {
            shape = draw_given(source, random, result, probabilities);
            counts.add(key_of(result, shape), group);
        }
        drawn += length;
    }
    return games;
}

}  // namespace

SampledCounts sample_counts(const SamplerSettings& settings, const PositionSource& source) {
    const std::uint64_t chunks = (settings.positions + kChunkPositions - 1) / kChunkPositions;
    const std::size_t threads = std::clamp<std::size_t>(std::size_t(std::max(settings.threads, 1)),
                                                        1, std::max<std::size_t>(chunks, 1));
    std::optional<counts::Grouping> grouping;
    if (settings.groups > 0) grouping = counts::Grouping{counts::GroupBy::Game, settings.groups};
    std::vector<counts::PositionCounts> maps(threads, counts::PositionCounts(grouping));
    std::vector<std::uint64_t> games(threads);
    util::parallel_for(std::size_t(chunks), int(threads), [&](std::size_t t, std::size_t chunk) {
        std::uint64_t first = chunk * kChunkPositions;
        games[t] += sample_chunk(settings, source, chunk,
                                 std::min(kChunkPositions, settings.positions - first), maps[t]);
    });
    SampledCounts result;
    result.counts = std::move(maps[0]);
    for (std::size_t t = 0; t < maps.size(); ++t) {
        if (t > 0) result.counts.merge(maps[t]);
        result.games += games[t];
    }
    result.positions = settings.positions;
    return result;
}

}  // namespace wdl::synth
