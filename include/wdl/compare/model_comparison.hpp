#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/model/model_lookup.hpp"

// Two or more WDL models side by side: their constants, a(mom) and b(mom) over the moms, what an
// eval displayed by one model is displayed as by another, and the W/D/L each gives. The first
// model is the reference that the others are compared with.
namespace wdl::compare {

struct ComparisonSettings {
    std::vector<double> moms;  // empty: a default set over the reference's mom range
    std::vector<double> evals{0, 0.5, 1, 2, 3};  // displayed pawns of the W/D/L table
};

struct ModelSummary {
    std::string label;  // "A", "B", ...
    model::NamedModel named;
    double pawn_value = 0;  // p_a at the target, internal units
    double spread = 0;      // p_b at the target, internal units
    double draw_rate_at_zero = 0;
    double normalized_spread = 0;  // spread / NormalizeToPawnValue
    // lc0's reading (model/lc0_wdl.hpp) of this model's W/D/L at its target mom: the sharpness s,
    // and WDL_mu of the internal eval that the reference displays as 1.00 there (nothing where
    // the moms do not correspond). Nothing where the W/D/L is too extreme for lc0's reading.
    std::optional<double> lc0_sharpness;
    std::optional<double> lc0_mu_of_reference_pawn;
    // The mom of the reference at which this model is evaluated, or nothing when the moms do not
    // correspond (material against move or ply).
    bool comparable_mom = true;
};

// One mom of the reference, and each model's values there (nothing where not comparable).
struct MomRow {
    double mom = 0;
    std::vector<std::optional<double>> a, b;
    std::vector<std::optional<double>> a_error;  // standard error where the covariance is known
    // What the eval the reference displays as 1.00 (its a) is displayed as by each model.
    std::vector<std::optional<double>> displays_reference_pawn;
};

struct WdlPoint {
    double internal_eval = 0;
    double win = 0, draw = 0, loss = 0;
};

// W/D/L of each model at an eval it displays as `pawns`, at the reference's target mom (at its
// own target where its mom does not correspond).
struct WdlRow {
    double pawns = 0;
    std::vector<WdlPoint> models;
};

struct Comparison {
    std::vector<ModelSummary> models;
    model::MomType mom_type = model::MomType::Material;  // the reference's
    double target_mom = 58;                              // the reference's
    std::vector<MomRow> rows;
    std::vector<WdlRow> wdl;
    // Plain statements of what is compared only approximately, or not at all, and why.
    std::vector<std::string> notes;
};

// Throws wdl::Error when fewer than two models are given.
Comparison compare_models(const std::vector<model::NamedModel>& models,
                          const ComparisonSettings& settings);

// The W/D/L table of the comparison's models at another mom of the reference than its target:
// each model at the corresponding mom (at its own target where its mom does not correspond).
std::vector<WdlRow> wdl_table(const Comparison& comparison, double mom,
                              const std::vector<double>& evals);

// The standard error of a(mom) in internal units, where the model's covariance is known: a is
// linear in the coefficients, so its variance is g' C g with g = (t^3, t^2, t, 1).
std::optional<double> a_standard_error(const model::NamedModel& named, double mom);

// The printed report and its JSON twin.
std::string comparison_text(const Comparison& comparison);
nlohmann::ordered_json comparison_json(const Comparison& comparison);

}  // namespace wdl::compare
