#include "wdl/human/synthetic_games.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "wdl/counts/grouping.hpp"
#include "wdl/stats/random.hpp"
#include "wdl/synth/sampler.hpp"
#include "wdl/util/error.hpp"

namespace wdl::human {

namespace {

constexpr int kBinWidth = 10;
constexpr int kLowestRating = 600, kHighestRating = 2900;

int rating_bin_centre(double rating) {
    return counts::bin_rating(
        int(std::floor(std::clamp(rating, double(kLowestRating), double(kHighestRating)))));
}

counts::Outcome draw_outcome(stats::Random& random, const std::array<double, 3>& p) {
    const double u = random.uniform();
    return u < p[0]          ? counts::Outcome::Win
           : u < p[0] + p[1] ? counts::Outcome::Draw
                             : counts::Outcome::Loss;
}

}  // namespace

counts::HumanCounts synthetic_human_counts(const SyntheticHumanSettings& settings) {
    const std::uint64_t stream = stats::stream_seed(settings.seed, 0);
    stats::Random random(stream);
    const synth::SyntheticPositions source(kBinWidth);
    // (result, move, material, eval, rating, opponent, group) -> count
    std::map<std::tuple<int, int, int, int, int, int, int>, std::uint64_t> cells;
    const int half = std::max(1, settings.positions_per_game / 2);
    for (std::uint64_t game = 0; game < settings.games; ++game) {
        const double level = settings.level_mean + settings.level_sd * random.normal();
        const double difference = settings.difference_sd * random.normal();
        const Situation first{0, double(rating_bin_centre(level + difference / 2)),
                              double(rating_bin_centre(level - difference / 2))};
        const Situation second{0, first.opponent_rating, first.rating};
        const int group = counts::group_of_drawn_game(stream, game, settings.groups);
        auto probabilities = [&](const Situation& players, const synth::PositionShape& shape) {
            Situation at = players;
            at.material = shape.material;
            return settings.model.wdl(shape.eval, at);
        };
        auto shape = source.draw(random);
        const counts::Outcome result = draw_outcome(random, probabilities(first, shape));
        const int length = half + int(random.below(std::uint64_t(2 * half + 1)));
        for (int i = 0; i < length; ++i) {
            const bool opponent = settings.alternate_sides && i % 2 == 1;
            const Situation& players = opponent ? second : first;
            const counts::Outcome seen = opponent ? counts::opposite(result) : result;
            if (i > 0) {
                constexpr int kMaxTries = 1000000;
                int tries = 0;
                do {
                    if (++tries > kMaxTries)
                        throw Error("the model almost never gives a drawn game's result");
                    shape = source.draw(random);
                } while (!(random.uniform() < probabilities(players, shape)[std::size_t(seen)]));
            }
            ++cells[{int(seen), shape.move, shape.material, shape.eval, int(players.rating),
                     int(players.opponent_rating), group}];
        }
    }
    counts::HumanCounts counts;
    counts.groups = settings.groups;
    for (const auto& [key, count] : cells) {
        const auto& [result, move, material, eval, rating, opponent, group] = key;
        counts.cells.push_back(
            {{{counts::Outcome(result), move, material, eval}, rating, opponent, settings.speed},
             group,
             count});
    }
    return counts;
}

}  // namespace wdl::human
