#include "wdl/model/model_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "wdl/model/lc0_wdl.hpp"
#include "wdl/util/error.hpp"

namespace wdl::model {

nlohmann::ordered_json model_json(const WdlModel& model) {
    nlohmann::ordered_json json;
    json["as"] = model.as;
    json["bs"] = model.bs;
    json["momType"] = mom_type_name(model.mom_type);
    json["momTarget"] = model.mom_target;
    if (model.mom_min) json["momMin"] = *model.mom_min;
    if (model.mom_max) json["momMax"] = *model.mom_max;
    if (model.eval_scale != 1) json["evalScale"] = model.eval_scale;
    json["NormalizeToPawnValue"] = model.pawn_value();
    json["spread"] = model.spread();
    json["normalizedSpread"] = model.normalized_spread();
    json["drawRateAtZero"] = model.draw_rate_at_zero();
    // lc0's reading of the model at its target (lc0_wdl.hpp): WDL_mu = x / a, s = b / a.
    double target = model.mom_target;
    if (auto lc0 = lc0_wdl(model.win(0, target), model.loss(0, target)))
        json["lc0"] = {{"sharpness", lc0->sharpness}, {"muPerInternalUnit", 1 / model.a(target)}};
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

std::optional<double> optional_number(const nlohmann::json& object, const char* name,
                                      std::string_view source) {
    auto it = object.find(name);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) throw Error(fmt::format("{}: \"{}\" must be a number.", source, name));
    return it->get<double>();
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
        if (!mom_type)
            throw Error(fmt::format("{}: momType must be material, move or ply.", source));
        model.mom_type = *mom_type;
    }
    if (auto target = object.find("momTarget"); target != object.end()) {
        if (!target->is_number_integer() || target->get<long long>() <= 0)
            throw Error(fmt::format("{}: momTarget must be a positive integer.", source));
        model.mom_target = target->get<int>();
    }
    model.mom_min = optional_number(object, "momMin", source);
    model.mom_max = optional_number(object, "momMax", source);
    if (auto scale = optional_number(object, "evalScale", source)) {
        if (*scale <= 0) throw Error(fmt::format("{}: evalScale must be positive.", source));
        model.eval_scale = *scale;
    }
    return model;
}

std::optional<std::array<std::array<double, 8>, 8>> covariance_from_json(
    const nlohmann::json& json) {
    const nlohmann::json& object = json.contains("model") ? json["model"] : json;
    if (!object.is_object() || !object.contains("uncertainty")) return std::nullopt;
    const auto& uncertainty = object["uncertainty"];
    if (!uncertainty.is_object() || !uncertainty.contains("covariance")) return std::nullopt;
    const auto& rows = uncertainty["covariance"];
    if (!rows.is_array() || rows.size() != 8) return std::nullopt;
    std::array<std::array<double, 8>, 8> covariance{};
    for (std::size_t i = 0; i < 8; ++i) {
        if (!rows[i].is_array() || rows[i].size() != 8) return std::nullopt;
        for (std::size_t j = 0; j < 8; ++j) {
            if (!rows[i][j].is_number()) return std::nullopt;
            covariance[i][j] = rows[i][j].get<double>();
        }
    }
    return covariance;
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("cannot read {}.", path.string()));
    std::stringstream text;
    text << in.rdbuf();
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& error) {
        throw Error(fmt::format("{} is not valid JSON: {}", path.string(), error.what()));
    }
}

WdlModel read_model_file(const std::filesystem::path& path) {
    return model_from_json(read_json_file(path), path.string());
}

}  // namespace wdl::model
