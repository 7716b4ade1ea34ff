#include "wdl/model/normalization.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace wdl::model {

std::string_view mom_type_name(MomType type) { return type == MomType::Move ? "move" : "material"; }

std::optional<MomType> mom_type_from_name(std::string_view name) {
    if (name == "material") return MomType::Material;
    if (name == "move") return MomType::Move;
    return std::nullopt;
}

std::string python_float_repr(double value) {
    std::string text = fmt::format("{}", value);
    if (text.find_first_of(".eni") == std::string::npos) text += ".0";
    return text;
}

namespace {

using OrderedJson = nlohmann::ordered_json;

std::string python_string_repr(const std::string& text) {
    bool has_single = text.find('\'') != std::string::npos;
    bool has_double = text.find('"') != std::string::npos;
    char quote = has_single && !has_double ? '"' : '\'';
    std::string out(1, quote);
    for (char c : text) {
        if (c == '\\' || c == quote) out += '\\';
        out += c;
    }
    out += quote;
    return out;
}

// Python's repr() of the value json.loads() would produce.
std::string python_repr(const OrderedJson& value) {
    switch (value.type()) {
        case OrderedJson::value_t::null:
            return "None";
        case OrderedJson::value_t::boolean:
            return value.get<bool>() ? "True" : "False";
        case OrderedJson::value_t::number_integer:
        case OrderedJson::value_t::number_unsigned:
            return value.dump();
        case OrderedJson::value_t::number_float:
            return python_float_repr(value.get<double>());
        case OrderedJson::value_t::string:
            return python_string_repr(value.get<std::string>());
        case OrderedJson::value_t::array: {
            std::string out = "[";
            for (std::size_t i = 0; i < value.size(); ++i) {
                if (i) out += ", ";
                out += python_repr(value[i]);
            }
            return out + "]";
        }
        case OrderedJson::value_t::object: {
            std::string out = "{";
            bool first = true;
            for (const auto& [key, item] : value.items()) {
                if (!first) out += ", ";
                first = false;
                out += python_string_repr(key) + ": " + python_repr(item);
            }
            return out + "}";
        }
        default:
            return value.dump();
    }
}

double required_number(const OrderedJson& object, const char* name) {
    auto it = object.find(name);
    if (it == object.end() || !it->is_number()) {
        throw std::runtime_error(
            fmt::format("Error: --NormalizeData needs a number \"{}\".", name));
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
        throw std::runtime_error(
            fmt::format("Error: --NormalizeData is not valid JSON: {}", error.what()));
    }
    if (!object.is_object()) throw std::runtime_error("Error: --NormalizeData must be an object.");

    DynamicNormalization dynamic;
    auto as = object.find("as");
    if (as == object.end() || !as->is_array() || as->size() != 4 ||
        !std::all_of(as->begin(), as->end(), [](const auto& c) { return c.is_number(); })) {
        throw std::runtime_error("Error: --NormalizeData needs \"as\": a list of 4 numbers.");
    }
    for (std::size_t i = 0; i < 4; ++i) dynamic.as[i] = (*as)[i].get<double>();
    // The original turns the coefficients into floats before printing them.
    *as = OrderedJson::array();
    for (double c : dynamic.as) as->push_back(c);

    if (!object.contains("momType")) object["momType"] = "material";
    const auto& type = object["momType"];
    auto mom_type = type.is_string() ? mom_type_from_name(type.get<std::string>()) : std::nullopt;
    if (!mom_type) throw std::runtime_error("Error: momType must be move or material.");
    dynamic.mom_type = *mom_type;
    dynamic.mom_min = required_number(object, "momMin");
    dynamic.mom_max = required_number(object, "momMax");
    dynamic.mom_target = required_number(object, "momTarget");

    Normalization normalization;
    double sum = ((0.0 + dynamic.as[0] + dynamic.as[1]) + dynamic.as[2]) + dynamic.as[3];
    normalization.pawn_value_ = int(sum + 0.5);
    normalization.dynamic_ = dynamic;
    normalization.description_ = "NormalizeData = " + python_repr(object);
    return normalization;
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
