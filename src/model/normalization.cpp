#include "wdl/model/normalization.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "wdl/model/model_file.hpp"
#include "wdl/model/model_lookup.hpp"
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

// The whole model of --NormalizeData JSON that gives "bs" as well as "as".
WdlModel model_of(const OrderedJson& object, const DynamicNormalization& dynamic) {
    if (dynamic.mom_target != std::floor(dynamic.mom_target) || dynamic.mom_target < 1)
        throw Error("momTarget of --NormalizeData must be a positive whole number with \"bs\".");
    auto b = curve_from_json(nlohmann::json(object), "bs", "bForm", "--NormalizeData");
    WdlModel model;
    model.as = dynamic.as;
    model.a_form = dynamic.form;
    model.bs = std::move(b.coefficients);
    model.b_form = b.form;
    model.mom_type = dynamic.mom_type;
    model.mom_target = int(dynamic.mom_target);
    model.mom_min = dynamic.mom_min;
    model.mom_max = dynamic.mom_max;
    return model;
}

// Evals are divided by a(mom) wherever the clamp may put a count's mom, so a(mom) must be
// positive there: 0 would make every eval infinite (or NaN), a negative one flip their signs.
// Moms of counts are whole numbers, so the clamp's ends and the whole numbers between them are
// all the values a(mom) is taken at (at most 100001 of them, spaced evenly beyond that).
void check_positive_scale(const DynamicNormalization& d) {
    if (!std::isfinite(d.mom_min) || !std::isfinite(d.mom_max) || d.mom_min > d.mom_max)
        throw Error(
            fmt::format("momMin {} and momMax {} are no range of moms", d.mom_min, d.mom_max));
    if (!(d.mom_target > 0) || !std::isfinite(d.mom_target))
        throw Error(fmt::format("momTarget {} is not positive", d.mom_target));
    auto check = [&](double mom) {
        double a = curve_value(d.form, d.as, mom / d.mom_target);
        if (!(a > 0) || !std::isfinite(a))
            throw Error(
                fmt::format("a({}) = {:.6g} is not positive, but evals are divided by "
                            "a(mom) for every mom in [momMin, momMax] = [{}, {}]",
                            mom, a, d.mom_min, d.mom_max));
    };
    check(d.mom_min);
    double first = std::ceil(d.mom_min), last = std::floor(d.mom_max);
    double step = std::max(1.0, std::ceil((last - first) / 100000));
    for (double mom = first; mom <= last; mom += step) check(mom);
    check(d.mom_max);
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
    auto a = curve_from_json(nlohmann::json(object), "as", "aForm", "--NormalizeData");
    dynamic.as = std::move(a.coefficients);
    dynamic.form = a.form;
    // The original turns the coefficients into floats before printing them.
    object["as"] = dynamic.as;

    if (!object.contains("momType")) object["momType"] = "material";
    const auto& type = object["momType"];
    auto mom_type = type.is_string() ? mom_type_from_name(type.get<std::string>()) : std::nullopt;
    if (!mom_type || *mom_type == MomType::Ply) throw Error("momType must be move or material.");
    dynamic.mom_type = *mom_type;
    dynamic.mom_min = required_number(object, "momMin");
    dynamic.mom_max = required_number(object, "momMax");
    dynamic.mom_target = required_number(object, "momTarget");

    try {
        check_positive_scale(dynamic);
    } catch (const Error& error) {
        throw Error(std::string("--NormalizeData: ") + error.what());
    }
    Normalization normalization = with_dynamic(dynamic, object);
    if (object.contains("bs")) normalization.model_ = model_of(object, dynamic);
    return normalization;
}

Normalization Normalization::with_dynamic(const DynamicNormalization& dynamic,
                                          const OrderedJson& shown) {
    Normalization normalization;
    normalization.pawn_value_ = int(round_half_up(curve_at_target(dynamic.form, dynamic.as)));
    normalization.dynamic_ = dynamic;
    normalization.description_ = "NormalizeData = " + util::python_repr(shown);
    return normalization;
}

Normalization Normalization::from_model(const WdlModel& model) {
    // Its engine displayed by a constant (Stockfish 12 to 16.1): the counts convert by it
    // whatever the model's mom, each cp at the middle of the evals truncated to it.
    if (model.display.pawn_divisor) {
        int divisor = *model.display.pawn_divisor;
        Normalization normalization = fixed(divisor);
        normalization.model_ = model;
        normalization.display_.pawn_divisor = divisor;
        normalization.description_ = fmt::format(
            "the model's display, {}: each cp read at the middle of the evals printed as it",
            display_rule_text(normalization.display_));
        return normalization;
    }
    if (model.mom_type == MomType::Ply)
        throw Error(
            "its display, 100 v / a(ply), depends on the ply, which count keys do not hold");
    if (model.eval_scale != 1)
        throw Error("the model takes evals in PawnValueEg units, not internal ones");
    if (!model.mom_min || !model.mom_max)
        throw Error("the model has no momMin and momMax (the clamp of its mom)");
    // Whole bounds as integers, as Stockfish writes them and the JSON default spells them.
    auto bound = [](double value) {
        return value == std::floor(value) ? OrderedJson(static_cast<long long>(value))
                                          : OrderedJson(value);
    };
    DynamicNormalization dynamic{model.mom_type,           *model.mom_min, *model.mom_max,
                                 double(model.mom_target), model.as,       model.a_form};
    check_positive_scale(dynamic);
    // The description shows the model's normalization as --NormalizeData would spell it.
    OrderedJson shown;
    shown["momType"] = mom_type_name(model.mom_type);
    shown["momMin"] = bound(*model.mom_min);
    shown["momMax"] = bound(*model.mom_max);
    shown["momTarget"] = model.mom_target;
    shown["as"] = model.as;
    if (!model.a_form.is_cubic()) shown["aForm"] = curve_form_name(model.a_form);
    Normalization normalization = with_dynamic(dynamic, shown);
    normalization.model_ = model;
    return normalization;
}

Normalization Normalization::from_options(const std::optional<int>& pawn_value,
                                          const std::optional<std::string>& data) {
    // The programs' options refuse it too; this keeps any other caller from dividing by it.
    if (pawn_value && *pawn_value <= 0)
        throw Error(fmt::format("--NormalizeToPawnValue {} is not positive", *pawn_value));
    if (pawn_value) return fixed(*pawn_value);
    std::string text = data.value_or(std::string(kDefaultNormalizeData));
    auto first = text.find_first_not_of(" \t\n");
    if (first != std::string::npos && text[first] == '{') return from_json(text);
    auto named = load_model(text);
    try {
        return from_model(named.model);
    } catch (const Error& error) {
        throw Error("--NormalizeData " + text + ": " + error.what());
    }
}

double Normalization::pawn_scale(int move, int material) const {
    if (!dynamic_) return pawn_value_;
    const DynamicNormalization& d = *dynamic_;
    double mom = d.mom_type == MomType::Move ? move : material;
    double clamped = std::min(std::max(mom, d.mom_min), d.mom_max);
    return curve_value(d.form, d.as, clamped / d.mom_target);
}

// eval * N is exact in doubles for any int eval and N, so the static case rounds the same
// quotient as the original's integer product divided by 100.
double Normalization::to_internal(int eval_cp, int move, int material) const {
    return to_internal_with_scale(eval_cp, pawn_scale(move, material));
}

}  // namespace wdl::model
