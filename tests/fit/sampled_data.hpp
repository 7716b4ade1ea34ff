#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "wdl/counts/count_file.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/synth/sampler.hpp"

// Grouped data drawn from a known model (the synth module), ready for fitting.
namespace wdl::fit::test {

inline const counts::Grouping kGameGroups{counts::GroupBy::Game, 64};

// Settings of the sampler: Stockfish's model, the default normalization.
inline synth::SamplerSettings sampler(std::uint64_t positions, bool games, int groups,
                                      std::uint64_t seed) {
    synth::SamplerSettings settings;
    settings.positions = positions;
    settings.games = games;
    settings.groups = groups;
    settings.seed = seed;
    settings.threads = 2;
    return settings;
}

inline const ResampledEstimate& estimate_named(const Resampling& resampling,
                                               const std::string& name) {
    for (const auto& estimate : resampling.estimates)
        if (estimate.name == name) return estimate;
    throw std::runtime_error("no estimate " + name);
}

struct SampledFit {
    std::unique_ptr<CountGrid> grid;
    std::unique_ptr<GroupedData> data;
    FitResult fit;
    FitOptions options;
};

inline SampledFit sample_and_fit(const synth::SamplerSettings& settings,
                                 Method method = Method::OptimizeProbability,
                                 model::CurveForm a_form = {}, model::CurveForm b_form = {},
                                 const GridFilter& filter = {}) {
    SampledFit sampled;
    sampled.grid = std::make_unique<CountGrid>(filter, settings.normalization, true);
    auto counts = synth::sample_counts(settings, synth::SyntheticPositions(5));
    counts.counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        sampled.grid->add_to_group(group, counts::unpack_key(key), std::int64_t(count));
    });
    sampled.data = std::make_unique<GroupedData>(*sampled.grid);
    sampled.options.method = method;
    sampled.options.pawn_value = settings.normalization.pawn_value();
    sampled.options.a_form = a_form;
    sampled.options.b_form = b_form;
    sampled.fit = fit_model(sampled.data->total(), sampled.options);
    return sampled;
}

}  // namespace wdl::fit::test
