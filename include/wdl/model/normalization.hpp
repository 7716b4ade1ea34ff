#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/model/printed_eval.hpp"
#include "wdl/model/wdl_model.hpp"

// Conversion of the scanner's displayed centipawns back to the engine's internal units.
namespace wdl::model {

// Dynamic normalization parameters (--NormalizeData).
struct DynamicNormalization {
    MomType mom_type = MomType::Material;
    double mom_min = 17, mom_max = 78, mom_target = 58;
    Coefficients as = Coefficients(4, 0.0);  // p_a, Stockfish's cubic or another form
    CurveForm form;
};

// Python's round() of a double: to nearest, ties to even.
inline long round_half_even(double value) { return long(std::nearbyint(value)); }

class Normalization {
  public:
    static Normalization fixed(int pawn_value);
    // Parses the JSON of --NormalizeData; throws wdl::Error with a clear message.
    static Normalization from_json(std::string_view json);
    // The conversion by a model's display rule: a constant divisor N (Stockfish 12 to 16.1, of
    // any mom) takes each cp to the middle of the evals the engine printed as it, 100 v / N
    // truncated; else the dynamic normalization of its p_a, as Stockfish normalizes its evals:
    // its mom (material or move), clamp and target. Throws wdl::Error for a model that cannot
    // normalize counts (a(ply) display, evals not in internal units, no clamp).
    static Normalization from_model(const WdlModel& model);
    // The normalization of the programs' options: --NormalizeToPawnValue N (static), or
    // --NormalizeData given as a JSON object or as any model (a registry name, a model file, a
    // Stockfish source; see load_model) whose p_a normalizes; kDefaultNormalizeData when
    // neither is given.
    static Normalization from_options(const std::optional<int>& pawn_value,
                                      const std::optional<std::string>& data);

    // The input's pawn value: N, or int(sum(as) + 0.5) as the original computes it.
    int pawn_value() const { return pawn_value_; }
    const std::optional<DynamicNormalization>& dynamic() const { return dynamic_; }

    // Internal eval of a cp eval: round-half-to-even(eval * a / 100) with a = N or the
    // dynamic p_a at the clamped mom, computed in the same floating-point order as the original;
    // eval is first moved to the middle of its range where a model's engine truncated.
    // A double: evals of any int are converted without overflow; callers range-check them
    // before they narrow.
    double to_internal(int eval_cp, int move, int material) const;
    // The a of that conversion: N, or the dynamic p_a at the clamped mom.
    double pawn_scale(int move, int material) const;
    // The engine's whole model when the normalization comes with one: a model given by name or
    // file, or JSON with "bs" as well as "as" (clamped to [momMin, momMax]). None otherwise.
    const std::optional<WdlModel>& model() const { return model_; }
    // The conversion with a precomputed pawn_scale (the hot path of loading counts).
    double to_internal_with_scale(int eval_cp, double scale) const {
        double cp = printed_cp_middle(display_, eval_cp);
        return std::nearbyint(cp * scale / 100.0);  // as round_half_even
    }

    // The "Converting evals with ..." description, e.g. "NormalizeToPawnValue = 328" or
    // "NormalizeData = {'momType': ...}" (the JSON printed as a Python dict).
    const std::string& description() const { return description_; }

  private:
    // The normalization by `dynamic`, described by `shown` (its JSON as the user would give it).
    static Normalization with_dynamic(const DynamicNormalization& dynamic,
                                      const nlohmann::ordered_json& shown);

    int pawn_value_ = 0;
    std::optional<DynamicNormalization> dynamic_;
    std::optional<WdlModel> model_;
    // How the evals were printed: by default rounded, as the original's conversion assumes.
    DisplayRule display_;
    std::string description_;
};

// The default --NormalizeData: Stockfish 18's model (docs/programs.md).
inline constexpr std::string_view kDefaultNormalizeData =
    R"({"momType": "material", "momMin": 17, "momMax": 78, "momTarget": 58, )"
    R"("as": [-72.32565836, 185.93832038, -144.58862193, 416.44950446]})";

}  // namespace wdl::model
