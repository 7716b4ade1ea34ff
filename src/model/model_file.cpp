#include "wdl/model/model_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "wdl/util/error.hpp"

namespace wdl::model {

nlohmann::ordered_json model_json(const WdlModel& model) {
    nlohmann::ordered_json json;
    json["as"] = model.as;
    json["bs"] = model.bs;
    json["momType"] = mom_type_name(model.mom_type);
    json["momTarget"] = model.mom_target;
    json["NormalizeToPawnValue"] = model.pawn_value();
    json["spread"] = model.spread();
    json["normalizedSpread"] = model.normalized_spread();
    json["drawRateAtZero"] = model.draw_rate_at_zero();
    return json;
}

namespace {

Poly3 coefficients(const nlohmann::json& object, const char* name, std::string_view source) {
    auto it = object.find(name);
    if (it == object.end() || !it->is_array() || it->size() != 4 ||
        !std::all_of(it->begin(), it->end(), [](const auto& c) { return c.is_number(); })) {
        throw Error(fmt::format("{}: the model needs \"{}\": a list of 4 numbers.", source, name));
    }
    Poly3 c{};
    for (std::size_t i = 0; i < 4; ++i) c[i] = (*it)[i].get<double>();
    return c;
}

}  // namespace

WdlModel model_from_json(const nlohmann::json& json, std::string_view source) {
    const nlohmann::json& object = json.contains("model") ? json["model"] : json;
    if (!object.is_object()) throw Error(fmt::format("{}: a model must be a JSON object.", source));
    WdlModel model;
    model.as = coefficients(object, "as", source);
    model.bs = coefficients(object, "bs", source);
    if (auto type = object.find("momType"); type != object.end()) {
        auto mom_type =
            type->is_string() ? mom_type_from_name(type->get<std::string>()) : std::nullopt;
        if (!mom_type) throw Error(fmt::format("{}: momType must be move or material.", source));
        model.mom_type = *mom_type;
    }
    if (auto target = object.find("momTarget"); target != object.end()) {
        if (!target->is_number_integer() || target->get<long long>() <= 0)
            throw Error(fmt::format("{}: momTarget must be a positive integer.", source));
        model.mom_target = target->get<int>();
    }
    return model;
}

WdlModel read_model_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("cannot read the model file {}.", path.string()));
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& error) {
        throw Error(fmt::format("{} is not valid JSON: {}", path.string(), error.what()));
    }
    return model_from_json(json, path.string());
}

}  // namespace wdl::model
