// The C export: a header of static inline functions (C99, <math.h> only), every name prefixed
// with wdl_ so that it can sit in any program.
#include <fmt/format.h>

#include "export_text.hpp"

namespace wdl::exporting::detail {
namespace {

std::string array_line(const char* name, const model::Coefficients& c) {
    std::string items;
    for (double value : c) items += (items.empty() ? "" : ", ") + literal(value);
    return fmt::format("static const double {}[{}] = {{{}}};\n", name, c.size(), items);
}

// The constants: the coefficients, the scales, the mom's range, the display divisor, the clamp.
std::string constants(const model::WdlModel& model) {
    std::string text = array_line("wdl_as", model.as);
    text += array_line("wdl_bs", model.bs);
    text += fmt::format(
        "\n/* Internal units per unit of the eval the coefficients take. */\n"
        "#define WDL_EVAL_SCALE {}\n",
        literal(model.eval_scale));
    if (model.mom_min) text += fmt::format("#define WDL_MOM_MIN {}\n", literal(*model.mom_min));
    if (model.mom_max) text += fmt::format("#define WDL_MOM_MAX {}\n", literal(*model.mom_max));
    text += fmt::format("#define WDL_MOM_TARGET {}\n", literal(model.mom_target));
    if (model.display.pawn_divisor) {
        text += fmt::format(
            "/* The engine displayed 100 * value / WDL_DISPLAY_DIVISOR, in integer division. */\n"
            "#define WDL_DISPLAY_DIVISOR {}\n",
            *model.display.pawn_divisor);
    }
    if (auto limit = eval_limit(model)) {
        text += fmt::format(
            "/* The curve reads value clamped to +-WDL_EVAL_LIMIT, as the engine did. */\n"
            "#define WDL_EVAL_LIMIT {}\n",
            literal(*limit));
    }
    text += "\n";
    return text;
}

// wdl_clamped_mom, wdl_a(mom) and wdl_b(mom).
std::string curve_functions(const model::WdlModel& model) {
    auto element = [](const char* name) {
        return [name](int k) { return fmt::format("{}[{}]", name, k); };
    };
    std::string text = "static inline double wdl_clamped_mom(double mom) {\n";
    if (model.mom_min) text += "    if (mom < WDL_MOM_MIN) return WDL_MOM_MIN;\n";
    if (model.mom_max) text += "    if (mom > WDL_MOM_MAX) return WDL_MOM_MAX;\n";
    text += "    return mom;\n}\n\n";
    text += fmt::format(
        "/* The internal eval at which the engine wins half of its games at mom. */\n"
        "static inline double wdl_a(double mom) {{\n"
        "    double t = wdl_clamped_mom(mom) / WDL_MOM_TARGET;\n"
        "    return WDL_EVAL_SCALE * ({});\n"
        "}}\n\n"
        "/* How quickly the win rate rises around wdl_a(mom), in internal units. */\n"
        "static inline double wdl_b(double mom) {{\n"
        "    double t = wdl_clamped_mom(mom) / WDL_MOM_TARGET;\n"
        "    return WDL_EVAL_SCALE * ({});\n"
        "}}\n\n",
        curve_expression(model.a_form, element("wdl_as"), "t"),
        curve_expression(model.b_form, element("wdl_bs"), "t"));
    return text;
}

}  // namespace

std::string c_source(const model::WdlModel& model, const std::vector<std::string>& header) {
    std::string text = commented(header, "// ");
    text +=
        "//\n"
        "// wdl_rates(value, mom) gives the probabilities, wdl_per_mille(value, mom) what\n"
        "// Stockfish prints, wdl_to_cp(value, mom) the displayed eval and wdl_from_cp(cp, mom)\n"
        "// the internal one. C99; link with -lm.\n"
        "#ifndef WDL_MODEL_H\n"
        "#define WDL_MODEL_H\n\n"
        "#include <math.h>\n\n";
    text += constants(model);
    text += curve_functions(model);
    text += fmt::format(
        "/* 1 / (1 + exp(-z)) without overflow. */\n"
        "static inline double wdl_logistic(double z) {{\n"
        "    if (z < 0) {{\n"
        "        double e = exp(z);\n"
        "        return e / (1.0 + e);\n"
        "    }}\n"
        "    return 1.0 / (1.0 + exp(-z));\n"
        "}}\n\n"
        "static inline double wdl_win_rate(double value, double location, double spread) {{\n"
        "    /* A spread that is not positive is taken as the smallest positive one. */\n"
        "    if (spread < {0}) spread = {0};\n"
        "    return wdl_logistic((value - location) / spread);\n"
        "}}\n\n"
        "struct wdl_rates {{\n"
        "    double win, draw, loss;\n"
        "}};\n\n"
        "static inline struct wdl_rates wdl_rates(double value, double mom) {{\n"
        "{1}"
        "    double a = wdl_a(mom), b = wdl_b(mom);\n"
        "    struct wdl_rates p;\n"
        "    p.win = wdl_win_rate(value, a, b);\n"
        "    p.loss = wdl_win_rate(-value, a, b);\n"
        "    p.draw = 1.0 - p.win - p.loss;\n"
        "    return p;\n"
        "}}\n\n"
        "struct wdl_per_mille {{\n"
        "    int win, draw, loss;\n"
        "}};\n\n"
        "static inline struct wdl_per_mille wdl_per_mille(double value, double mom) {{\n"
        "    struct wdl_rates p = wdl_rates(value, mom);\n"
        "    struct wdl_per_mille r;\n"
        "    r.win = (int)(0.5 + 1000 * p.win);\n"
        "    r.loss = (int)(0.5 + 1000 * p.loss);\n"
        "    r.draw = 1000 - r.win - r.loss;\n"
        "    return r;\n"
        "}}\n\n"
        "/* The internal eval the engine displays as +1.00 at mom. */\n"
        "static inline double wdl_display_scale(double mom) {{\n"
        "{2}"
        "}}\n\n"
        "static inline double wdl_to_cp(double value, double mom) {{\n"
        "    return 100 * value / wdl_display_scale(mom);\n"
        "}}\n\n"
        "static inline double wdl_from_cp(double cp, double mom) {{\n"
        "    return cp * wdl_display_scale(mom) / 100;\n"
        "}}\n\n"
        "#endif\n",
        min_spread_literal(),
        eval_limit(model) ? "    if (value > WDL_EVAL_LIMIT) value = WDL_EVAL_LIMIT;\n"
                            "    if (value < -WDL_EVAL_LIMIT) value = -WDL_EVAL_LIMIT;\n"
                          : "",
        model.display.pawn_divisor ? "    (void)mom;\n    return WDL_DISPLAY_DIVISOR;\n"
                                   : "    return wdl_a(mom);\n");
    return text;
}

}  // namespace wdl::exporting::detail
