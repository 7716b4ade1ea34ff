#include "wdl/compare/model_comparison.hpp"

#include <fmt/format.h>

#include <cmath>

#include "wdl/model/corresponding_mom.hpp"
#include "wdl/model/lc0_wdl.hpp"
#include "wdl/util/error.hpp"

namespace wdl::compare {
namespace {

using model::corresponding_mom;
using model::displayed_by;
using model::MomType;

std::vector<double> default_moms(MomType type) {
    switch (type) {
        case MomType::Material:
            return {17, 24, 32, 40, 48, 58, 68, 78};
        case MomType::Move:
            return {8, 16, 24, 32, 48, 64, 96, 120};
        case MomType::Ply:
            return {16, 32, 48, 64, 96, 128, 192, 240};
    }
    return {};
}

std::string label_of(std::size_t index) { return std::string(1, char('A' + index % 26)); }

ModelSummary summarize(const model::NamedModel& named, std::size_t index,
                       const model::WdlModel& reference) {
    const auto& m = named.model;
    ModelSummary summary;
    summary.label = label_of(index);
    summary.named = named;
    summary.pawn_value = m.eval_scale * m.a_at_target();
    summary.spread = m.eval_scale * m.b_at_target();
    summary.draw_rate_at_zero = m.draw_rate_at_zero();
    summary.normalized_spread = m.normalized_spread();
    // lc0's s from the model's own W/D/L: any eval gives the same (b / a).
    double target = m.mom_target;
    if (auto lc0 = model::lc0_wdl(m.win(0, target), m.loss(0, target)))
        summary.lc0_sharpness = lc0->sharpness;
    if (auto own = corresponding_mom(reference.mom_type, reference.mom_target, m.mom_type)) {
        double x = reference.from_cp(100, reference.mom_target);
        if (auto lc0 = model::lc0_wdl(m.win(x, *own), m.loss(x, *own)))
            summary.lc0_mu_of_reference_pawn = lc0->mu;
    }
    return summary;
}

std::string mom_description(const model::WdlModel& m) {
    std::string range;
    if (m.mom_min || m.mom_max) {
        range = fmt::format(" clamped to {}..{}", m.mom_min ? fmt::format("{:g}", *m.mom_min) : "",
                            m.mom_max ? fmt::format("{:g}", *m.mom_max) : "");
    }
    std::string units = m.eval_scale == 1
                            ? "internal units"
                            : fmt::format("evals in units of {:g} internal", m.eval_scale);
    std::string forms = m.has_stockfish_form()
                            ? ""
                            : fmt::format("; a {}, b {}", model::curve_form_name(m.a_form),
                                          model::curve_form_name(m.b_form));
    return fmt::format("{}{}, target {}; {}{}", mom_type_name(m.mom_type), range, m.mom_target,
                       units, forms);
}

void add_notes(Comparison& comparison) {
    const auto& reference = comparison.models.front();
    for (std::size_t i = 1; i < comparison.models.size(); ++i) {
        const auto& other = comparison.models[i];
        MomType a = reference.named.model.mom_type, b = other.named.model.mom_type;
        if (a == b) continue;
        if (other.comparable_mom) {
            comparison.notes.push_back(fmt::format(
                "{} depends on the {}, {} on the {}: compared at ply = 2 (move - 1), White to "
                "move; a ply more or less changes a(mom) by a fraction of a unit.",
                reference.label, mom_type_name(a), other.label, mom_type_name(b)));
        } else {
            comparison.notes.push_back(fmt::format(
                "{} depends on the {}, {} on the {}: no {} corresponds to a {}, so {} is "
                "compared only by its constants at its own target and by its W/D/L there.",
                reference.label, mom_type_name(a), other.label, mom_type_name(b), mom_type_name(b),
                mom_type_name(a), other.label));
        }
    }
    for (const auto& summary : comparison.models) {
        if (summary.named.model.eval_scale != 1) {
            comparison.notes.push_back(fmt::format(
                "{} takes evals in units of PawnValueEg / 100 (x = 100 v / PawnValueEg); its a and "
                "b are shown converted to internal units (times {:g}).",
                summary.label, summary.named.model.eval_scale));
        }
    }
}

MomRow row_at(const Comparison& comparison, double mom) {
    MomRow row;
    row.mom = mom;
    const auto& reference = comparison.models.front().named.model;
    for (const auto& summary : comparison.models) {
        const auto& m = summary.named.model;
        auto own = corresponding_mom(reference.mom_type, mom, m.mom_type);
        if (!own) {
            row.a.push_back(std::nullopt);
            row.b.push_back(std::nullopt);
            row.a_error.push_back(std::nullopt);
            row.displays_reference_pawn.push_back(std::nullopt);
            continue;
        }
        row.a.push_back(m.a(*own));
        row.b.push_back(m.b(*own));
        row.a_error.push_back(a_standard_error(summary.named, *own));
        row.displays_reference_pawn.push_back(displayed_by(reference, mom, 1, m));
    }
    return row;
}

WdlRow wdl_at(const Comparison& comparison, double reference_mom, double pawns) {
    WdlRow row;
    row.pawns = pawns;
    const auto& reference = comparison.models.front().named.model;
    for (const auto& summary : comparison.models) {
        const auto& m = summary.named.model;
        double mom =
            corresponding_mom(reference.mom_type, reference_mom, m.mom_type).value_or(m.mom_target);
        WdlPoint point;
        point.internal_eval = m.from_cp(100 * pawns, mom);
        point.win = m.win(point.internal_eval, mom);
        point.draw = m.draw(point.internal_eval, mom);
        point.loss = m.loss(point.internal_eval, mom);
        row.models.push_back(point);
    }
    return row;
}

std::string cell(const std::optional<double>& value, const char* format) {
    return value ? fmt::format(fmt::runtime(format), *value) : std::string("-");
}

std::string signed_difference(const std::optional<double>& value, const std::optional<double>& base,
                              const char* format) {
    if (!value || !base) return "-";
    return fmt::format(fmt::runtime(format), *value - *base);
}

}  // namespace

std::optional<double> a_standard_error(const model::NamedModel& named, double mom) {
    if (!named.covariance) return std::nullopt;
    const auto& m = named.model;
    double t = m.clamped(mom) / m.mom_target;
    std::vector<double> gradient(m.as.size());
    model::curve_gradient(m.a_form, m.as, t, gradient);
    double variance = 0;
    for (std::size_t i = 0; i < gradient.size(); ++i)
        for (std::size_t j = 0; j < gradient.size(); ++j)
            variance += gradient[i] * (*named.covariance)[i][j] * gradient[j];
    return m.eval_scale * std::sqrt(std::max(variance, 0.0));
}

Comparison compare_models(const std::vector<model::NamedModel>& models,
                          const ComparisonSettings& settings) {
    if (models.size() < 2) throw Error("comparing needs at least two models");
    Comparison comparison;
    for (std::size_t i = 0; i < models.size(); ++i)
        comparison.models.push_back(summarize(models[i], i, models.front().model));
    const auto& reference = models.front().model;
    comparison.mom_type = reference.mom_type;
    comparison.target_mom = reference.mom_target;
    for (auto& summary : comparison.models)
        summary.comparable_mom = corresponding_mom(reference.mom_type, reference.mom_target,
                                                   summary.named.model.mom_type)
                                     .has_value();
    add_notes(comparison);
    auto moms = settings.moms.empty() ? default_moms(reference.mom_type) : settings.moms;
    for (double mom : moms) comparison.rows.push_back(row_at(comparison, mom));
    comparison.wdl = wdl_table(comparison, comparison.target_mom, settings.evals);
    return comparison;
}

std::vector<WdlRow> wdl_table(const Comparison& comparison, double mom,
                              const std::vector<double>& evals) {
    std::vector<WdlRow> rows;
    for (double pawns : evals) rows.push_back(wdl_at(comparison, mom, pawns));
    return rows;
}

std::string comparison_text(const Comparison& comparison) {
    const auto& models = comparison.models;
    std::string text = "Models:\n";
    for (const auto& summary : models) {
        text += fmt::format("  {}  {}: {}; {}\n", summary.label, summary.named.name,
                            summary.named.description, mom_description(summary.named.model));
    }
    std::string header = fmt::format("\n{:<24}", "");
    for (const auto& summary : models) header += fmt::format("{:>12}", summary.label);
    for (std::size_t i = 1; i < models.size(); ++i)
        header += fmt::format("{:>12}", models[i].label + " - " + models[0].label);
    text += header + "\n";
    auto constant_line = [&](const char* name, auto value, const char* format) {
        std::string line = fmt::format("{:<24}", name);
        for (const auto& summary : models)
            line += fmt::format(fmt::runtime(format), value(summary));
        for (std::size_t i = 1; i < models.size(); ++i)
            line += fmt::format(fmt::runtime(format), value(models[i]) - value(models[0]));
        text += line + "\n";
    };
    constant_line(
        "NormalizeToPawnValue", [](const ModelSummary& s) { return s.pawn_value; }, "{:>12.1f}");
    constant_line(
        "spread", [](const ModelSummary& s) { return s.spread; }, "{:>12.1f}");
    constant_line(
        "normalized spread", [](const ModelSummary& s) { return s.normalized_spread; },
        "{:>12.4f}");
    constant_line(
        "draw rate at eval 0", [](const ModelSummary& s) { return s.draw_rate_at_zero; },
        "{:>12.4f}");
    // Rows of values that may be missing: "-" there.
    auto optional_line = [&](const std::string& name, auto value) {
        std::string line = fmt::format("{:<24}", name);
        for (const auto& summary : models)
            line += fmt::format("{:>12}", cell(value(summary), "{:.4f}"));
        for (std::size_t i = 1; i < models.size(); ++i) {
            line += fmt::format("{:>12}",
                                signed_difference(value(models[i]), value(models[0]), "{:+.4f}"));
        }
        text += line + "\n";
    };
    optional_line("lc0 sharpness s", [](const ModelSummary& s) { return s.lc0_sharpness; });
    optional_line("lc0 WDL_mu of 1.00 of " + models[0].label,
                  [](const ModelSummary& s) { return s.lc0_mu_of_reference_pawn; });

    std::string mom_name(model::mom_type_name(comparison.mom_type));
    text += fmt::format(
        "\nPer {} of {} (internal units; \"1.00 of {}\": how each model displays the "
        "eval {} displays as 1.00):\n",
        mom_name, models[0].label, models[0].label, models[0].label);
    std::string columns = fmt::format("{:>9}", mom_name);
    for (const auto& summary : models) columns += fmt::format("{:>10}", "a " + summary.label);
    for (std::size_t i = 1; i < models.size(); ++i)
        columns += fmt::format("{:>10}", "a " + models[i].label + "-" + models[0].label);
    for (const auto& summary : models) columns += fmt::format("{:>10}", "b " + summary.label);
    for (std::size_t i = 1; i < models.size(); ++i)
        columns += fmt::format("{:>16}", "1.00 of " + models[0].label + " in " + models[i].label);
    text += columns + "\n";
    for (const auto& row : comparison.rows) {
        std::string line = fmt::format("{:>9g}", row.mom);
        for (const auto& a : row.a) line += fmt::format("{:>10}", cell(a, "{:.1f}"));
        for (std::size_t i = 1; i < models.size(); ++i)
            line += fmt::format("{:>10}", signed_difference(row.a[i], row.a[0], "{:+.1f}"));
        for (const auto& b : row.b) line += fmt::format("{:>10}", cell(b, "{:.1f}"));
        for (std::size_t i = 1; i < models.size(); ++i)
            line += fmt::format("{:>16}", cell(row.displays_reference_pawn[i], "{:.2f}"));
        text += line + "\n";
    }

    text += fmt::format("\nW/D/L (per mille) at displayed evals, at {} {} of {}:\n", mom_name,
                        comparison.target_mom, models[0].label);
    std::string wdl_header = fmt::format("{:>9}", "eval");
    for (const auto& summary : models) wdl_header += fmt::format("{:>18}", summary.label);
    text += wdl_header + "\n";
    for (const auto& row : comparison.wdl) {
        std::string line = fmt::format("{:>+9.2f}", row.pawns);
        for (const auto& point : row.models) {
            line += fmt::format("{:>18}", fmt::format("{:.0f}/{:.0f}/{:.0f}", 1000 * point.win,
                                                      1000 * point.draw, 1000 * point.loss));
        }
        text += line + "\n";
    }
    for (const auto& note : comparison.notes) text += "Note: " + note + "\n";
    return text;
}

nlohmann::ordered_json comparison_json(const Comparison& comparison) {
    auto optional = [](const std::optional<double>& value) {
        return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
    };
    nlohmann::ordered_json json;
    auto& models = json["models"] = nlohmann::ordered_json::array();
    for (const auto& summary : comparison.models) {
        const auto& m = summary.named.model;
        nlohmann::ordered_json entry;
        entry["label"] = summary.label;
        entry["name"] = summary.named.name;
        entry["description"] = summary.named.description;
        entry["as"] = m.as;
        entry["bs"] = m.bs;
        entry["aForm"] = model::curve_form_name(m.a_form);
        entry["bForm"] = model::curve_form_name(m.b_form);
        entry["momType"] = mom_type_name(m.mom_type);
        entry["momTarget"] = m.mom_target;
        entry["momMin"] = optional(m.mom_min);
        entry["momMax"] = optional(m.mom_max);
        entry["evalScale"] = m.eval_scale;
        entry["pawnValue"] = summary.pawn_value;
        entry["spread"] = summary.spread;
        entry["drawRateAtZero"] = summary.draw_rate_at_zero;
        entry["normalizedSpread"] = summary.normalized_spread;
        entry["lc0"] = {{"sharpness", optional(summary.lc0_sharpness)},
                        {"wdlMuOfReferencePawn", optional(summary.lc0_mu_of_reference_pawn)}};
        entry["comparableMom"] = summary.comparable_mom;
        models.push_back(entry);
    }
    json["momType"] = mom_type_name(comparison.mom_type);
    json["targetMom"] = comparison.target_mom;
    auto& rows = json["moms"] = nlohmann::ordered_json::array();
    for (const auto& row : comparison.rows) {
        nlohmann::ordered_json entry;
        entry["mom"] = row.mom;
        for (const auto& [name, values] :
             {std::pair{"a", &row.a}, std::pair{"b", &row.b}, std::pair{"aError", &row.a_error},
              std::pair{"displaysReferencePawn", &row.displays_reference_pawn}}) {
            auto& list = entry[name] = nlohmann::ordered_json::array();
            for (const auto& value : *values) list.push_back(optional(value));
        }
        rows.push_back(entry);
    }
    auto& wdl = json["wdl"] = nlohmann::ordered_json::array();
    for (const auto& row : comparison.wdl) {
        nlohmann::ordered_json entry;
        entry["pawns"] = row.pawns;
        auto& points = entry["models"] = nlohmann::ordered_json::array();
        for (const auto& point : row.models) {
            points.push_back({{"internalEval", point.internal_eval},
                              {"win", point.win},
                              {"draw", point.draw},
                              {"loss", point.loss}});
        }
        wdl.push_back(entry);
    }
    json["notes"] = comparison.notes;
    return json;
}

}  // namespace wdl::compare
