#include "wdl/model/normalization.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "wdl/util/error.hpp"
#include "wdl/util/python_format.hpp"

namespace wdl::model {

namespace {

using OrderedJson = nlohmann::ordered_json;

double required_number(const OrderedJson& object, const char* name) {
    auto it = object.find(name);
    if (it == object.end() || !it->is_number()) {
        throw Error(fmt::format("--NormalizeData needs a number \"{}\".", name));
    }
    return it->get<double>();
}

}  // namespace

Normalization Normalization::fixed(int pawn_value) {
    Normalization normalization;
    normalization.pawn_value_ = pawn_value;
    normalization.description_ = fmt::format("NormalizeToPawnValue = {}", pawn_value);
    return normalization;
}

Normalization Normalization::from_json(std::string_view json) {
    OrderedJson object;
    try {
        object = OrderedJson::parse(json);
    } catch (const nlohmann::json::exception& error) {
        throw Error(fmt::format("--NormalizeData is not valid JSON: {}", error.what()));
    }
    if (!object.is_object()) throw Error("--NormalizeData must be an object.");

    DynamicNormalization dynamic;
    auto as = object.find("as");
    if (as == object.end() || !as->is_array() || as->size() != 4 ||
        !std::all_of(as->begin(), as->end(), [](const auto& c) { return c.is_number(); })) {
        throw Error("--NormalizeData needs \"as\": a list of 4 numbers.");
    }
    for (std::size_t i = 0; i < 4; ++i) dynamic.as[i] = (*as)[i].get<double>();
    // The original turns the coefficients into floats before printing them.
    *as = OrderedJson::array();
    for (double c : dynamic.as) as->push_back(c);

    if (!object.contains("momType")) object["momType"] = "material";
    const auto& type = object["momType"];
    auto mom_type = type.is_string() ? mom_type_from_name(type.get<std::string>()) : std::nullopt;
    if (!mom_type || *mom_type == MomType::Ply) throw Error("momType must be move or material.");
    dynamic.mom_type = *mom_type;
    dynamic.mom_min = required_number(object, "momMin");
    dynamic.mom_max = required_number(object, "momMax");
    dynamic.mom_target = required_number(object, "momTarget");

    Normalization normalization;
    normalization.pawn_value_ = int(round_half_up(coefficient_sum(dynamic.as)));
    normalization.dynamic_ = dynamic;
    normalization.description_ = "NormalizeData = " + util::python_repr(object);
    return normalization;
}

Normalization Normalization::from_model(const WdlModel& model) {
    if (model.mom_type == MomType::Ply)
        throw Error("a model of the ply cannot normalize counts, whose keys hold moves");
    if (model.eval_scale != 1)
        throw Error("the model takes evals in PawnValueEg units, not internal ones");
    if (!model.mom_min || !model.mom_max)
        throw Error("the model has no momMin and momMax (the clamp of its mom)");
    // Whole bounds as integers, as Stockfish writes them and the JSON default spells them.
    auto bound = [](double value) {
        return value == std::floor(value) ? OrderedJson(static_cast<long long>(value))
                                          : OrderedJson(value);
    };
    OrderedJson json;
    json["momType"] = mom_type_name(model.mom_type);
    json["momMin"] = bound(*model.mom_min);
    json["momMax"] = bound(*model.mom_max);
    json["momTarget"] = model.mom_target;
    json["as"] = model.as;
    return from_json(json.dump());
}

double Normalization::pawn_scale(int move, int material) const {
    if (!dynamic_) return pawn_value_;
    const DynamicNormalization& d = *dynamic_;
    double mom = d.mom_type == MomType::Move ? move : material;
    double clamped = std::min(std::max(mom, d.mom_min), d.mom_max);
    return poly3(d.as, clamped / d.mom_target);
}

// eval * N is exact in doubles for any int eval and N, so the static case rounds the same
// quotient as the original's integer product divided by 100.
int Normalization::to_internal(int eval_cp, int move, int material) const {
    return to_internal_with_scale(eval_cp, pawn_scale(move, material));
}

}  // namespace wdl::model
