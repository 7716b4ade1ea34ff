// The JSON export: the model's parameters in the shape docs/wdl_model_export.schema.json
// describes, for code that evaluates the model itself (docs/export.md).
#include <nlohmann/json.hpp>

#include "export_text.hpp"

namespace wdl::exporting::detail {

std::string json_source(const model::WdlModel& model, const std::vector<std::string>& provenance,
                        const std::vector<std::string>& conventions) {
    nlohmann::ordered_json json;
    json["format"] = "wdlfit model export";
    json["formatVersion"] = 1;
    json["provenance"] = provenance;
    json["conventions"] = conventions;
    json["momType"] = model::mom_type_name(model.mom_type);
    if (model.mom_min) json["momMin"] = *model.mom_min;
    if (model.mom_max) json["momMax"] = *model.mom_max;
    json["momTarget"] = model.mom_target;
    json["evalScale"] = model.eval_scale;
    // How the engine displayed evals (null: 100 v / a(mom)) and clamped the curve's input.
    json["displayDivisor"] = model.display.pawn_divisor
                                 ? nlohmann::ordered_json(*model.display.pawn_divisor)
                                 : nlohmann::ordered_json();
    auto limit = eval_limit(model);
    json["evalLimit"] = limit ? nlohmann::ordered_json(*limit) : nlohmann::ordered_json();
    json["aForm"] = model::curve_form_name(model.a_form);
    json["bForm"] = model::curve_form_name(model.b_form);
    json["as"] = model.as;
    json["bs"] = model.bs;
    json["minSpread"] = model::kMinSpread;
    // nlohmann prints every double with the digits that read back as the same double.
    return json.dump(2) + "\n";
}

}  // namespace wdl::exporting::detail
