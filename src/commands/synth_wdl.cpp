#include "wdl/commands/synth_wdl.hpp"

#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "wdl/counts/count_file.hpp"
#include "wdl/model/model_file.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/synth/sampler.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

model::WdlModel truth_of(const SynthWdlOptions& options) {
    if (options.model && (options.as || options.bs))
        throw Error("give the model either as --model or as --as and --bs, not both.");
    if (options.as.has_value() != options.bs.has_value())
        throw Error("--as and --bs go together: the model needs both.");
    if (options.model) return model::load_model(*options.model).model;
    if (!options.as) return synth::stockfish_model();
    model::WdlModel truth;
    truth.as = *options.as;
    truth.bs = *options.bs;
    truth.a_form = {model::CurveKind::Polynomial, int(truth.as.size()) - 1};
    truth.b_form = {model::CurveKind::Polynomial, int(truth.bs.size()) - 1};
    truth.mom_type = options.mom_type;
    truth.mom_target = options.mom_target;
    return truth;
}

std::unique_ptr<synth::PositionSource> source_of(const SynthWdlOptions& options) {
    if (options.from) return std::make_unique<synth::CountFilePositions>(*options.from);
    return std::make_unique<synth::SyntheticPositions>(options.bin_width);
}

// The one unit of --label FIELD=VALUE ...; none without --label.
std::optional<counts::GroupLabels> labels_of(const SynthWdlOptions& options, int groups) {
    if (options.label.empty()) return std::nullopt;
    if (groups == 0)
        throw Error("--label needs a grouped output: --games or --groups K (1 or more).");
    counts::GroupLabel label;
    for (const auto& field : options.label) {
        auto equals = field.find('=');
        if (equals == std::string::npos)
            throw Error(fmt::format("--label {}: give FIELD=VALUE.", field));
        counts::set_label_field(label, field.substr(0, equals), field.substr(equals + 1));
    }
    if (label.id.empty()) throw Error("--label needs id=..., what tells the unit apart.");
    counts::GroupLabels labels;
    labels.groups_per_label = groups;
    labels.units.push_back(std::move(label));
    return labels;
}

}  // namespace

void synth_wdl(const SynthWdlOptions& options) {
    if (options.normalize_to_pawn_value && options.normalize_data)
        throw Error("Can only specify one of --NormalizeToPawnValue and --NormalizeData.");
    synth::SamplerSettings settings;
    settings.model = truth_of(options);
    settings.normalization =
        model::Normalization::from_options(options.normalize_to_pawn_value, options.normalize_data);
    settings.positions = options.positions;
    settings.seed = options.seed;
    settings.games = options.games;
    settings.positions_per_game = options.positions_per_game;
    settings.groups = options.groups.value_or(options.games ? 64 : 0);
    settings.threads = options.threads;
    auto labels = labels_of(options, settings.groups);
    auto source = source_of(options);
    util::AtomicFile output(options.output);  // a bad path fails before the drawing

    const model::WdlModel& truth = settings.model;
    fmt::print(
        "True model: NormalizeToPawnValue p_a({}) = {:.3f}, spread p_b({}) = {:.3f}, "
        "draw rate at 0.0 eval = {:.5f} ({} based).\n",
        truth.mom_target, truth.a_at_target(), truth.mom_target, truth.b_at_target(),
        truth.draw_rate_at_zero(), model::mom_type_name(truth.mom_type));
    fmt::print("Evals displayed with {}.\n", settings.normalization.description());
    fmt::print("Drawing {} {} (move, material, eval from {}), seed {}.\n", settings.positions,
               settings.games
                   ? fmt::format("positions in games of {} on average", settings.positions_per_game)
                   : std::string("independent positions"),
               options.from ? options.from->string() : std::string("the synthetic distribution"),
               settings.seed);
    std::fflush(stdout);
    auto sampled = synth::sample_counts(settings, *source);
    counts::write_counts(sampled.counts, output, labels ? &*labels : nullptr, settings.threads);
    std::size_t keys = sampled.counts.distinct_keys();
    fmt::print(
        "Wrote {} positions{} in {} keys to {}{}.\n", sampled.positions,
        settings.games ? fmt::format(" of {} games", sampled.games) : "", keys,
        options.output.string(),
        settings.groups > 0 ? fmt::format(", split into {} groups by game", settings.groups) : "");
    if (options.json) {
        nlohmann::ordered_json json;
        json["output"] = options.output.string();
        json["positions"] = sampled.positions;
        if (settings.games) json["games"] = sampled.games;
        json["keys"] = keys;
        json["groups"] = settings.groups;
        json["seed"] = settings.seed;
        if (labels) json["labels"] = counts::labels_json(*labels);
        json["source"] = options.from ? options.from->string() : "synthetic";
        json["normalization"] = settings.normalization.description();
        json["model"] = model::model_json(truth);
        util::write_file_atomically(*options.json, json.dump(2) + "\n");
    }
}

}  // namespace wdl::commands
