#include "wdl/model/model_file.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "wdl/model/lc0_wdl.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::model {

nlohmann::ordered_json model_json(const WdlModel& model) {
    nlohmann::ordered_json json;
    json["as"] = model.as;
    json["bs"] = model.bs;
    if (!model.a_form.is_cubic()) json["aForm"] = curve_form_name(model.a_form);
    if (!model.b_form.is_cubic()) json["bForm"] = curve_form_name(model.b_form);
    json["momType"] = mom_type_name(model.mom_type);
    json["momTarget"] = model.mom_target;
    if (model.mom_min) json["momMin"] = *model.mom_min;
    if (model.mom_max) json["momMax"] = *model.mom_max;
    if (model.eval_scale != 1) json["evalScale"] = model.eval_scale;
    // How its engine displayed evals, where that was not 100 v / a(mom) (display_rule.hpp).
    if (model.display.pawn_divisor) json["displayDivisor"] = *model.display.pawn_divisor;
    if (model.display.eval_limit) json["evalLimit"] = *model.display.eval_limit;
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
    auto a = curve_from_json(object, "as", "aForm", source);
    auto b = curve_from_json(object, "bs", "bForm", source);
    model.a_form = a.form;
    model.as = std::move(a.coefficients);
    model.b_form = b.form;
    model.bs = std::move(b.coefficients);
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
    if (auto divisor = object.find("displayDivisor"); divisor != object.end()) {
        if (!divisor->is_number_integer() || divisor->get<long long>() <= 0)
            throw Error(fmt::format("{}: displayDivisor must be a positive integer.", source));
        model.display.pawn_divisor = divisor->get<int>();
    }
    if (auto limit = optional_number(object, "evalLimit", source)) {
        if (*limit <= 0) throw Error(fmt::format("{}: evalLimit must be positive.", source));
        model.display.eval_limit = *limit;
    }
    return model;
}

CurveOfJson curve_from_json(const nlohmann::json& object, const std::string& name,
                            const std::string& form_key, std::string_view source) {
    auto it = object.find(name);
    if (it == object.end() || !it->is_array() ||
        !std::all_of(it->begin(), it->end(), [](const auto& c) { return c.is_number(); })) {
        throw Error(
            fmt::format("{}: the model needs \"{}\": a list of numbers (4 for Stockfish's "
                        "cubic).",
                        source, name));
    }
    CurveOfJson curve;
    curve.coefficients = it->get<Coefficients>();
    if (auto form = object.find(form_key); form != object.end()) {
        auto parsed =
            form->is_string() ? curve_form_from_name(form->get<std::string>()) : std::nullopt;
        if (!parsed) {
            throw Error(
                fmt::format("{}: \"{}\" must name a form poly1 ... poly{} or rational1 "
                            "... rational{}.",
                            source, form_key, kMaxCurveDegree, kMaxCurveDegree));
        }
        curve.form = *parsed;
    } else {
        int degree = int(curve.coefficients.size()) - 1;
        if (degree < kMinCurveDegree || degree > kMaxCurveDegree) {
            throw Error(
                fmt::format("{}: \"{}\" must hold 2 to {} numbers (4 for Stockfish's "
                            "cubic).",
                            source, name, kMaxCurveDegree + 1));
        }
        curve.form = {CurveKind::Polynomial, degree};
    }
    try {
        check_coefficients(curve.form, curve.coefficients, name);
    } catch (const Error& error) {
        throw Error(fmt::format("{}: {}.", source, error.what()));
    }
    return curve;
}

std::optional<Covariance> covariance_from_json(const nlohmann::json& json, const WdlModel& model) {
    const nlohmann::json& object = json.contains("model") ? json["model"] : json;
    if (!object.is_object() || !object.contains("uncertainty")) return std::nullopt;
    const auto& uncertainty = object["uncertainty"];
    if (!uncertainty.is_object() || !uncertainty.contains("covariance")) return std::nullopt;
    const auto& rows = uncertainty["covariance"];
    const std::size_t n = std::size_t(model.parameter_count());
    if (!rows.is_array() || rows.size() != n) return std::nullopt;
    Covariance covariance(n, std::vector<double>(n));
    for (std::size_t i = 0; i < n; ++i) {
        if (!rows[i].is_array() || rows[i].size() != n) return std::nullopt;
        for (std::size_t j = 0; j < n; ++j) {
            if (!rows[i][j].is_number()) return std::nullopt;
            covariance[i][j] = rows[i][j].get<double>();
        }
    }
    return covariance;
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
    auto text = util::read_whole_file(path);
    if (!text) throw Error(fmt::format("cannot read {}.", path.string()));
    try {
        return nlohmann::json::parse(*text);
    } catch (const nlohmann::json::exception& error) {
        throw Error(fmt::format("{} is not valid JSON: {}", path.string(), error.what()));
    }
}

WdlModel read_model_file(const std::filesystem::path& path) {
    return model_from_json(read_json_file(path), path.string());
}

}  // namespace wdl::model
