#include "wdl/commands/compare_wdl.hpp"

#include <fmt/format.h>

#include "wdl/compare/model_comparison.hpp"
#include "wdl/model/published_models.hpp"
#include "wdl/report/comparison_plot.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

void print_registry() {
    fmt::print("{:<16}{:<12}{:<10}{:<10}{:>8}{:>8}  {}\n", "name", "date", "commit", "mom", "a(t)",
               "b(t)", "releases");
    for (const auto& published : model::published_models()) {
        const auto& m = published.model;
        std::string releases;
        for (const auto& release : published.releases)
            releases += (releases.empty() ? "" : ", ") + release;
        fmt::print("{:<16}{:<12}{:<10}{:<10}{:>8.1f}{:>8.1f}  {}\n", published.name, published.date,
                   published.commit.substr(0, 8), mom_type_name(m.mom_type),
                   m.eval_scale * model::coefficient_sum(m.as),
                   m.eval_scale * model::coefficient_sum(m.bs),
                   releases.empty() ? "(unreleased)" : releases);
    }
    fmt::print("a(t), b(t): at the target mom, in internal units. \"sf\" names the newest.\n");
}

// Explicit moms must be readable by every model.
void check_moms(const CompareWdlOptions& options, const std::vector<model::NamedModel>& models) {
    if (options.moms.empty()) return;
    const auto& reference = models.front().model;
    for (std::size_t i = 1; i < models.size(); ++i) {
        if (compare::corresponding_mom(reference.mom_type, reference.mom_target,
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
    if (options.list) return print_registry();
    if (options.models.size() < 2)
        throw Error("give at least two models to compare (or --list to see the registry)");
    std::vector<model::NamedModel> models;
    for (const auto& spec : options.models) models.push_back(model::load_model(spec));
    check_moms(options, models);
    auto comparison = compare::compare_models(models, {options.moms, options.evals});
    fmt::print("{}", compare::comparison_text(comparison));
    if (options.json) {
        util::write_file_atomically(*options.json,
                                    compare::comparison_json(comparison).dump(2) + "\n");
    }
    if (options.plot) {
        report::write_comparison_plot(comparison, options.png_name);
        fmt::print("Saved graphics to {}.\n", options.png_name.string());
    }
}

}  // namespace wdl::commands
