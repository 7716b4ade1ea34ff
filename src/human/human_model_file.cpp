#include "wdl/human/human_model_file.hpp"

#include <fmt/format.h>

#include <cmath>

#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::human {

const SpeedClassModel* HumanModelFile::find(counts::SpeedClass speed) const {
    for (const auto& entry : classes)
        if (entry.speed == speed) return &entry;
    return nullptr;
}

nlohmann::ordered_json human_model_json(const HumanModelFile& file) {
    nlohmann::ordered_json json;
    json["kind"] = kHumanModelKind;
    json["version"] = 1;
    json["materialTarget"] = kMaterialTarget;
    json["levelCentre"] = kLevelCentre;
    json["ratingScale"] = kRatingScale;
    json["cpCeiling"] = kCpCeiling;
    json["classes"] = nlohmann::ordered_json::array();
    for (const auto& entry : file.classes) {
        nlohmann::ordered_json c;
        c["speed"] = counts::speed_class_name(entry.speed);
        c["form"] = human_form_name(entry.model.form);
        c["parameterNames"] = parameter_names(entry.model.form);
        c["parameters"] = entry.model.parameters;
        c["standardErrors"] = entry.standard_errors ? nlohmann::ordered_json(*entry.standard_errors)
                                                    : nlohmann::ordered_json(nullptr);
        c["covariance"] = entry.covariance ? nlohmann::ordered_json(*entry.covariance)
                                           : nlohmann::ordered_json(nullptr);
        c["positions"] = entry.positions;
        c["matePositions"] = entry.mate_positions;
        c["groups"] = entry.groups;
        c["ratingRange"] = {entry.rating_low, entry.rating_high};
        json["classes"].push_back(std::move(c));
    }
    return json;
}

bool is_human_model_json(const nlohmann::json& json) {
    return json.is_object() && json.contains("kind") && json["kind"] == kHumanModelKind;
}

namespace {

void check_constant(const nlohmann::json& json, const char* name, double expected,
                    std::string_view source) {
    if (!json.contains(name) || !json[name].is_number() || json[name].get<double>() != expected)
        throw Error(fmt::format("{}: \"{}\" must be {}.", source, name, expected));
}

}  // namespace

HumanModelFile human_model_from_json(const nlohmann::json& json, std::string_view source) {
    if (!is_human_model_json(json))
        throw Error(fmt::format("{} is not a human model (its \"kind\" is not \"{}\").", source,
                                kHumanModelKind));
    if (!json.contains("version") || json["version"] != 1)
        throw Error(fmt::format("{}: only version 1 of human models is known.", source));
    check_constant(json, "materialTarget", kMaterialTarget, source);
    check_constant(json, "levelCentre", kLevelCentre, source);
    check_constant(json, "ratingScale", kRatingScale, source);
    check_constant(json, "cpCeiling", kCpCeiling, source);
    if (!json.contains("classes") || !json["classes"].is_array() || json["classes"].empty())
        throw Error(fmt::format("{}: \"classes\" must list at least one speed class.", source));
    HumanModelFile file;
    try {
        for (const auto& c : json["classes"]) {
            SpeedClassModel entry;
            const auto speed = counts::speed_class_from_name(c.at("speed").get<std::string>());
            if (!speed)
                throw Error(fmt::format("{}: unknown speed class {}.", source, c["speed"].dump()));
            if (file.find(*speed))
                throw Error(fmt::format("{}: the class {} twice.", source, c["speed"].dump()));
            entry.speed = *speed;
            const auto form = human_form_from_name(c.at("form").get<std::string>());
            if (!form) throw Error(fmt::format("{}: unknown form {}.", source, c["form"].dump()));
            entry.model.form = *form;
            entry.model.parameters = c.at("parameters").get<std::vector<double>>();
            if (int(entry.model.parameters.size()) != parameter_count(*form))
                throw Error(fmt::format("{}: the form {} has {} parameters, not {}.", source,
                                        human_form_name(*form), parameter_count(*form),
                                        entry.model.parameters.size()));
            for (double p : entry.model.parameters)
                if (!std::isfinite(p))
                    throw Error(fmt::format("{}: a parameter is not finite.", source));
            if (c.contains("standardErrors") && !c["standardErrors"].is_null())
                entry.standard_errors = c["standardErrors"].get<std::vector<double>>();
            if (c.contains("covariance") && !c["covariance"].is_null())
                entry.covariance = c["covariance"].get<std::vector<std::vector<double>>>();
            entry.positions = c.value("positions", 0.0);
            entry.mate_positions = c.value("matePositions", 0.0);
            entry.groups = c.value("groups", 0);
            if (c.contains("ratingRange")) {
                const auto range = c["ratingRange"].get<std::vector<int>>();
                if (range.size() == 2) {
                    entry.rating_low = range[0];
                    entry.rating_high = range[1];
                }
            }
            file.classes.push_back(std::move(entry));
        }
    } catch (const nlohmann::json::exception& error) {
        throw Error(fmt::format("{}: {}", source, error.what()));
    }
    return file;
}

std::optional<HumanModelFile> human_model_in(const std::string& name) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(name, error)) return std::nullopt;
    const auto text = util::read_whole_file(name);
    if (!text) return std::nullopt;
    const auto json = nlohmann::json::parse(*text, nullptr, false);
    if (json.is_discarded() || !is_human_model_json(json)) return std::nullopt;
    return human_model_from_json(json, name);
}

}  // namespace wdl::human
