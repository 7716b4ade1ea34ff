// The C++ export: a header in Stockfish's own style (its as[] and bs[] block and the
// static_assert tying NormalizeToPawnValue to them), needing C++17 and <cmath> only.
#include <fmt/format.h>

#include "export_text.hpp"

namespace wdl::exporting::detail {
namespace {

std::string array_line(const char* name, const model::Coefficients& c) {
    std::string items;
    for (double value : c) items += (items.empty() ? "" : ", ") + literal(value);
    return fmt::format("constexpr double {}[] = {{{}}};\n", name, items);
}

// Stockfish's check that NormalizeToPawnValue is a(target) rounded, written as Stockfish 16.1
// wrote it for its cubic (int(0.5 + as[0] + ... + as[3])) and the same way for other forms and
// scales. The constant is computed in the order the assertion adds, so that it holds.
struct PawnValueCheck {
    int value = 0;
    std::string expression;
};

PawnValueCheck pawn_value_check(const model::WdlModel& model) {
    const auto& form = model.a_form;
    const auto& c = model.as;
    std::string sum = "as[0]";
    for (int k = 1; k <= form.degree; ++k) sum += fmt::format(" + as[{}]", k);
    if (model.eval_scale == 1 && form.kind == model::CurveKind::Polynomial) {
        double total = 0;
        for (int k = 0; k <= form.degree; ++k) total += c[std::size_t(k)];
        // Stockfish 15.1 and 16 truncated the sum, and displayed by that constant.
        if (model.display.pawn_divisor == int(total) && int(total) != int(0.5 + total))
            return {int(total), "int(" + sum + ")"};
        total = 0.5;
        for (int k = 0; k <= form.degree; ++k) total += c[std::size_t(k)];
        return {int(total), "int(0.5 + " + sum + ")"};
    }
    double at_target = 0;
    for (int k = 0; k <= form.degree; ++k) at_target += c[std::size_t(k)];
    std::string value_at_target = sum;
    if (form.kind == model::CurveKind::Rational) {
        at_target = at_target / (1.0 + c[std::size_t(form.degree + 1)]);
        value_at_target = fmt::format("({}) / (1.0 + as[{}])", sum, form.degree + 1);
    }
    return {int(0.5 + model.eval_scale * at_target),
            fmt::format("int(0.5 + EvalScale * ({}))", value_at_target)};
}

// The divisor the engine displayed by: a(mom), NormalizeToPawnValue, or a constant defined with
// it (Stockfish 15.1 to 16.1 displayed by NormalizeToPawnValue, 12 to 15 by PawnValueEg).
struct Divisor {
    std::string name = "a(mom)";
    std::string definition;
};

Divisor divisor_of(const model::WdlModel& model, const PawnValueCheck& check) {
    Divisor divisor;
    if (model.display.pawn_divisor == check.value && model.eval_scale == 1) {
        divisor.name = "NormalizeToPawnValue";
    } else if (model.display.pawn_divisor) {
        divisor.name = model.eval_scale != 1 ? "PawnValueEg" : "DisplayDivisor";
        divisor.definition = fmt::format(
            "// The engine displayed 100 * value / {0}, in integer division.\n"
            "constexpr int {0} = {1};\n",
            divisor.name, *model.display.pawn_divisor);
    }
    return divisor;
}

// The constants: the coefficients, the scales, the clamps and the mom's range.
std::string constants(const model::WdlModel& model, const PawnValueCheck& check,
                      const Divisor& divisor) {
    std::string text = array_line("as", model.as);
    text += array_line("bs", model.bs);
    text += fmt::format(
        "\n// Internal units per unit of the eval the coefficients take.\n"
        "constexpr double EvalScale = {};\n\n"
        "// The internal eval displayed as +1.00: the engine wins half of its games with it at "
        "the\n// target mom.\n"
        "constexpr int NormalizeToPawnValue = {};\n"
        "static_assert(NormalizeToPawnValue == {});\n\n",
        literal(model.eval_scale), check.value, check.expression);
    text += divisor.definition;
    if (auto limit = eval_limit(model)) {
        text += fmt::format(
            "// The curve reads value clamped to +-EvalLimit, as the engine clamped it.\n"
            "constexpr double EvalLimit = {};\n",
            literal(*limit));
    }
    if (divisor.name != "a(mom)" || eval_limit(model)) text += "\n";
    if (model.mom_min)
        text += fmt::format("constexpr double MomMin = {};\n", literal(*model.mom_min));
    if (model.mom_max)
        text += fmt::format("constexpr double MomMax = {};\n", literal(*model.mom_max));
    text += fmt::format("constexpr double MomTarget = {};\n\n", literal(model.mom_target));
    return text;
}

// clamped_mom, a(mom) and b(mom).
std::string curve_functions(const model::WdlModel& model) {
    auto element = [](const char* name) {
        return [name](int k) { return fmt::format("{}[{}]", name, k); };
    };
    std::string text = "inline double clamped_mom(double mom) {\n";
    if (model.mom_min) text += "    if (mom < MomMin) return MomMin;\n";
    if (model.mom_max) text += "    if (mom > MomMax) return MomMax;\n";
    text += "    return mom;\n}\n\n";
    text += fmt::format(
        "// The internal eval at which the engine wins half of its games at mom.\n"
        "inline double a(double mom) {{\n"
        "    double t = clamped_mom(mom) / MomTarget;\n"
        "    return EvalScale * ({});\n"
        "}}\n\n"
        "// How quickly the win rate rises around a(mom), in internal units.\n"
        "inline double b(double mom) {{\n"
        "    double t = clamped_mom(mom) / MomTarget;\n"
        "    return EvalScale * ({});\n"
        "}}\n\n",
        curve_expression(model.a_form, element("as"), "t"),
        curve_expression(model.b_form, element("bs"), "t"));
    return text;
}

}  // namespace

std::string cpp_source(const model::WdlModel& model, const std::vector<std::string>& header) {
    auto check = pawn_value_check(model);
    auto divisor = divisor_of(model, check);
    std::string text = commented(header, "// ");
    text +=
        "//\n"
        "// wdl_model::wdl(value, mom) gives the probabilities, wdl_per_mille(value, mom) what\n"
        "// Stockfish prints, to_cp(value, mom) the displayed eval and from_cp(cp, mom) the\n"
        "// internal one. C++17, no dependencies.\n"
        "#pragma once\n\n"
        "#include <cmath>\n\n"
        "namespace wdl_model {\n\n";
    text += constants(model, check, divisor);
    text += curve_functions(model);
    text += fmt::format(
        "// 1 / (1 + exp(-z)) without overflow.\n"
        "inline double logistic(double z) {{\n"
        "    if (z < 0) {{\n"
        "        double e = std::exp(z);\n"
        "        return e / (1.0 + e);\n"
        "    }}\n"
        "    return 1.0 / (1.0 + std::exp(-z));\n"
        "}}\n\n"
        "inline double win_rate(double value, double location, double spread) {{\n"
        "    // A spread that is not positive is taken as the smallest positive one.\n"
        "    if (spread < {0}) spread = {0};\n"
        "    return logistic((value - location) / spread);\n"
        "}}\n\n"
        "struct Wdl {{\n"
        "    double win, draw, loss;\n"
        "}};\n\n"
        "inline Wdl wdl(double value, double mom) {{\n"
        "{1}"
        "    double a_mom = a(mom), b_mom = b(mom);\n"
        "    double win = win_rate(value, a_mom, b_mom), loss = win_rate(-value, a_mom, b_mom);\n"
        "    return {{win, 1.0 - win - loss, loss}};\n"
        "}}\n\n"
        "struct WdlPerMille {{\n"
        "    int win, draw, loss;\n"
        "}};\n\n"
        "inline WdlPerMille wdl_per_mille(double value, double mom) {{\n"
        "    Wdl p = wdl(value, mom);\n"
        "    int win = int(0.5 + 1000 * p.win), loss = int(0.5 + 1000 * p.loss);\n"
        "    return {{win, 1000 - win - loss, loss}};\n"
        "}}\n\n"
        "// The internal eval the engine displays as +1.00 at mom.\n"
        "inline double display_scale({3}double mom) {{ return {2}; }}\n\n"
        "inline double to_cp(double value, double mom) {{ return 100 * value / display_scale(mom); "
        "}}\n\n"
        "inline double from_cp(double cp, double mom) {{ return cp * display_scale(mom) / 100; "
        "}}\n\n"
        "}}  // namespace wdl_model\n",
        min_spread_literal(),
        eval_limit(model) ? "    if (value > EvalLimit) value = EvalLimit;\n"
                            "    if (value < -EvalLimit) value = -EvalLimit;\n"
                          : "",
        divisor.name, divisor.name == "a(mom)" ? "" : "[[maybe_unused]] ");
    return text;
}

}  // namespace wdl::exporting::detail
