#include "wdl/commands/compare_wdl.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <optional>

#include "comparison_plot_of.hpp"
#include "wdl/compare/data_scores.hpp"
#include "wdl/compare/fit_difference.hpp"
#include "wdl/compare/model_comparison.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/model/corresponding_mom.hpp"
#include "wdl/model/model_history.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/report/comparison_plot.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::commands {
namespace {

// How current the registry is: what the user needs to know before trusting "sf".
std::string registry_currency(const model::Registry& registry) {
    const auto& newest = registry.models.back();
    std::string text = fmt::format("{} ({} models, the newest of {}", registry.source,
                                   registry.models.size(), newest.date);
    if (registry.walked) {
        text += fmt::format(", read from Stockfish's history up to commit {} of {}",
                            registry.walked->commit.substr(0, 8), registry.walked->date);
    }
    return text + ")";
}

void print_registry(const model::Registry& registry) {
    fmt::print("Models of {}:\n", registry_currency(registry));
    fmt::print("{:<16}{:<12}{:<10}{:<10}{:>8}{:>8}  {}\n", "name", "date", "commit", "mom", "a(t)",
               "b(t)", "releases");
    for (const auto& published : registry.models) {
        const auto& m = published.model;
        std::string releases;
        for (const auto& release : published.releases)
            releases += (releases.empty() ? "" : ", ") + release;
        fmt::print("{:<16}{:<12}{:<10}{:<10}{:>8.1f}{:>8.1f}  {}\n", published.name, published.date,
                   published.commit.substr(0, 8), mom_type_name(m.mom_type),
                   m.eval_scale * m.a_at_target(), m.eval_scale * m.b_at_target(),
                   releases.empty() ? "(unreleased)" : releases);
    }
    fmt::print("a(t), b(t): at the target mom, in internal units. \"sf\" names the newest.\n");
    if (registry.walked) {
        fmt::print(
            "Models Stockfish committed after {} are not in it: compareWDL --history CLONE "
            "-o FILE reads them from a Stockfish clone, and --registry FILE (or "
            "WDLFIT_REGISTRY=FILE) makes every program use them.\n",
            registry.walked->date);
    }
}

// --history: the registry of a clone's history, printed and written.
void read_history(const std::filesystem::path& clone,
                  const std::optional<std::filesystem::path>& output) {
    auto started = std::chrono::steady_clock::now();
    util::ProgressLine progress;
    auto walk = model::walk_model_history(clone, "HEAD", [&](int done, int total) {
        progress.show(
            fmt::format("Reading commit {} of {} that touch the model's files", done, total));
    });
    progress.clear();
    for (const auto& warning : walk.warnings) fmt::print(stderr, "Warning: {}\n", warning);
    if (walk.registry.models.empty())
        throw Error("no WDL model (as[] and bs[]) in the history of " + clone.string());
    print_registry(walk.registry);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    fmt::print("Read {} commits touching {} in {:.1f} s.\n", walk.commits_read,
               fmt::join(model::kModelSourceFiles, ", "), seconds);
    if (output) {
        util::write_file_atomically(*output, model::registry_text(walk.registry));
        fmt::print("Wrote the registry of {} models to {}.\n", walk.registry.models.size(),
                   output->string());
    }
}

// Explicit moms must be readable by every model.
void check_moms(const CompareWdlOptions& options, const std::vector<model::NamedModel>& models) {
    if (options.moms.empty()) return;
    const auto& reference = models.front().model;
    for (std::size_t i = 1; i < models.size(); ++i) {
        if (model::corresponding_mom(reference.mom_type, reference.mom_target,
                                     models[i].model.mom_type))
            continue;
        throw Error(fmt::format(
            "--moms are {} values of {}, but {} depends on the {}: drop --moms to compare it at "
            "its own target",
            mom_type_name(reference.mom_type), models.front().name, models[i].name,
            mom_type_name(models[i].model.mom_type)));
    }
}

}  // namespace

void compare_wdl(const CompareWdlOptions& options) {
    if (options.history) return read_history(*options.history, options.output);
    if (options.list) return print_registry(model::active_registry());
    bool with_data = !options.counts.empty() || !options.fit.empty();
    if (options.models.size() < 2 && !with_data)
        throw Error("give at least two models to compare (or --list to see the registry)");
    if (!options.counts.empty() && options.models.empty())
        throw Error("--counts scores models: give at least one");
    std::vector<model::NamedModel> models;
    for (const auto& spec : options.models) models.push_back(model::load_model(spec));
    check_moms(options, models);
    // The counts are read first, so that an unreadable file stops the run before any output.
    std::optional<counts::MergedCounts> counts;
    if (!options.counts.empty()) counts = counts::merge_count_files(options.counts);
    nlohmann::ordered_json json;
    if (models.size() >= 2) {
        auto comparison = compare::compare_models(models, {options.moms, options.evals});
        fmt::print("{}", compare::comparison_text(comparison));
        json = compare::comparison_json(comparison);
        if (options.plot) {
            report::write_comparison_plot(comparison_plot_of(comparison), options.png_name);
            fmt::print("Saved graphics to {}.\n", options.png_name.string());
        }
    }
    if (with_data) {
        auto normalization = model::Normalization::from_options(options.normalize_to_pawn_value,
                                                                options.normalize_data);
        if (counts) {
            auto scores = compare::score_models(models, *counts, normalization, options.filter);
            fmt::print("{}", compare::data_scores_text(scores));
            json["counts"] = compare::data_scores_json(scores);
        }
        if (!options.fit.empty()) {
            std::fflush(stdout);
            compare::FitDifferenceOptions fit_options;
            fit_options.filter = options.filter;
            fit_options.fit.method = fit::Method::OptimizeProbability;
            fit_options.fit.mom_type = options.filter.mom_type;
            fit_options.fit.mom_target = options.mom_target;
            fit_options.fit.win_min = 10;
            fit_options.fit.pawn_value = normalization.pawn_value();
            fit_options.moms = options.moms;
            fit_options.threads = options.threads;
            auto difference =
                compare::fit_difference(options.fit[0], options.fit[1], normalization, fit_options);
            fmt::print("{}", compare::fit_difference_text(difference));
            json["fit"] = compare::fit_difference_json(difference);
        }
    }
    if (options.json) util::write_file_atomically(*options.json, json.dump(2) + "\n");
}

}  // namespace wdl::commands
