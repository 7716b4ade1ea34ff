// The Rust export: one file of pub fns and consts, no crates, edition 2021 (Rust 1.63, Debian
// 12's, compiles it).
#include <fmt/format.h>

#include "export_text.hpp"

namespace wdl::exporting::detail {
namespace {

std::string array_line(const char* name, const model::Coefficients& c) {
    std::string items;
    for (double value : c) items += (items.empty() ? "" : ", ") + literal(value);
    return fmt::format("pub const {}: [f64; {}] = [{}];\n", name, c.size(), items);
}

// The constants: the coefficients, the scales, the mom's range, the display divisor, the clamp.
std::string constants(const model::WdlModel& model) {
    std::string text = array_line("AS", model.as);
    text += array_line("BS", model.bs);
    text += fmt::format(
        "\n/// Internal units per unit of the eval the coefficients take.\n"
        "pub const EVAL_SCALE: f64 = {};\n",
        literal(model.eval_scale));
    if (model.mom_min)
        text += fmt::format("pub const MOM_MIN: f64 = {};\n", literal(*model.mom_min));
    if (model.mom_max)
        text += fmt::format("pub const MOM_MAX: f64 = {};\n", literal(*model.mom_max));
    text += fmt::format("pub const MOM_TARGET: f64 = {};\n", literal(model.mom_target));
    if (model.display.pawn_divisor) {
        text += fmt::format(
            "/// The engine displayed 100 * value / DISPLAY_DIVISOR, in integer division.\n"
            "pub const DISPLAY_DIVISOR: f64 = {};\n",
            literal(*model.display.pawn_divisor));
    }
    if (auto limit = eval_limit(model)) {
        text += fmt::format(
            "/// The curve reads value clamped to +-EVAL_LIMIT, as the engine clamped it.\n"
            "pub const EVAL_LIMIT: f64 = {};\n",
            literal(*limit));
    }
    text += "\n";
    return text;
}

// clamped_mom, a(mom) and b(mom).
std::string curve_functions(const model::WdlModel& model) {
    auto element = [](const char* name) {
        return [name](int k) { return fmt::format("{}[{}]", name, k); };
    };
    std::string text = "pub fn clamped_mom(mom: f64) -> f64 {\n";
    if (model.mom_min) text += "    if mom < MOM_MIN {\n        return MOM_MIN;\n    }\n";
    if (model.mom_max) text += "    if mom > MOM_MAX {\n        return MOM_MAX;\n    }\n";
    text += "    mom\n}\n\n";
    text += fmt::format(
        "/// The internal eval at which the engine wins half of its games at `mom`.\n"
        "pub fn a(mom: f64) -> f64 {{\n"
        "    let t = clamped_mom(mom) / MOM_TARGET;\n"
        "    EVAL_SCALE * ({})\n"
        "}}\n\n"
        "/// How quickly the win rate rises around `a(mom)`, in internal units.\n"
        "pub fn b(mom: f64) -> f64 {{\n"
        "    let t = clamped_mom(mom) / MOM_TARGET;\n"
        "    EVAL_SCALE * ({})\n"
        "}}\n\n",
        curve_expression(model.a_form, element("AS"), "t"),
        curve_expression(model.b_form, element("BS"), "t"));
    return text;
}

}  // namespace

std::string rust_source(const model::WdlModel& model, const std::vector<std::string>& header) {
    std::string text = commented(header, "//! ");
    text +=
        "//!\n"
        "//! `wdl(value, mom)` gives the probabilities, `wdl_per_mille(value, mom)` what\n"
        "//! Stockfish prints, `to_cp(value, mom)` the displayed eval and `from_cp(cp, mom)` the\n"
        "//! internal one. No crates; edition 2021.\n\n";
    text += constants(model);
    text += curve_functions(model);
    text += fmt::format(
        "/// 1 / (1 + exp(-z)) without overflow.\n"
        "fn logistic(z: f64) -> f64 {{\n"
        "    if z < 0.0 {{\n"
        "        let e = z.exp();\n"
        "        return e / (1.0 + e);\n"
        "    }}\n"
        "    1.0 / (1.0 + (-z).exp())\n"
        "}}\n\n"
        "fn win_rate(value: f64, location: f64, spread: f64) -> f64 {{\n"
        "    // A spread that is not positive is taken as the smallest positive one.\n"
        "    let spread = if spread < {0} {{ {0} }} else {{ spread }};\n"
        "    logistic((value - location) / spread)\n"
        "}}\n\n"
        "#[derive(Clone, Copy, Debug, PartialEq)]\n"
        "pub struct Wdl {{\n"
        "    pub win: f64,\n"
        "    pub draw: f64,\n"
        "    pub loss: f64,\n"
        "}}\n\n"
        "pub fn wdl(value: f64, mom: f64) -> Wdl {{\n"
        "{1}"
        "    let (a_mom, b_mom) = (a(mom), b(mom));\n"
        "    let win = win_rate(value, a_mom, b_mom);\n"
        "    let loss = win_rate(-value, a_mom, b_mom);\n"
        "    Wdl {{ win, draw: 1.0 - win - loss, loss }}\n"
        "}}\n\n"
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]\n"
        "pub struct WdlPerMille {{\n"
        "    pub win: i32,\n"
        "    pub draw: i32,\n"
        "    pub loss: i32,\n"
        "}}\n\n"
        "pub fn wdl_per_mille(value: f64, mom: f64) -> WdlPerMille {{\n"
        "    let p = wdl(value, mom);\n"
        "    let win = (0.5 + 1000.0 * p.win) as i32;\n"
        "    let loss = (0.5 + 1000.0 * p.loss) as i32;\n"
        "    WdlPerMille {{ win, draw: 1000 - win - loss, loss }}\n"
        "}}\n\n"
        "/// The internal eval the engine displays as +1.00 at `mom`.\n"
        "pub fn display_scale({2}: f64) -> f64 {{\n"
        "    {3}\n"
        "}}\n\n"
        "pub fn to_cp(value: f64, mom: f64) -> f64 {{\n"
        "    100.0 * value / display_scale(mom)\n"
        "}}\n\n"
        "pub fn from_cp(cp: f64, mom: f64) -> f64 {{\n"
        "    cp * display_scale(mom) / 100.0\n"
        "}}\n",
        min_spread_literal(),
        eval_limit(model) ? "    let value = value.clamp(-EVAL_LIMIT, EVAL_LIMIT);\n" : "",
        model.display.pawn_divisor ? "_mom" : "mom",
        model.display.pawn_divisor ? "DISPLAY_DIVISOR" : "a(mom)");
    return text;
}

}  // namespace wdl::exporting::detail
