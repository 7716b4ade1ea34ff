// The JavaScript export: an ES module (.mjs) without imports, for node and browsers.
#include <fmt/format.h>

#include "export_text.hpp"

namespace wdl::exporting::detail {
namespace {

std::string array_line(const char* name, const model::Coefficients& c) {
    std::string items;
    for (double value : c) items += (items.empty() ? "" : ", ") + literal(value);
    return fmt::format("export const {} = Object.freeze([{}]);\n", name, items);
}

}  // namespace

std::string javascript_source(const model::WdlModel& model,
                              const std::vector<std::string>& header) {
    auto element = [](const char* name) {
        return [name](int k) { return fmt::format("{}[{}]", name, k); };
    };
    std::string text = commented(header, "// ");
    text +=
        "//\n"
        "// wdl(value, mom) gives the probabilities, wdlPerMille(value, mom) what Stockfish\n"
        "// prints, toCp(value, mom) the displayed eval and fromCp(cp, mom) the internal one.\n"
        "// An ES module without imports.\n\n";
    text += array_line("AS", model.as);
    text += array_line("BS", model.bs);
    text += fmt::format(
        "\n// Internal units per unit of the eval the coefficients take.\n"
        "export const EVAL_SCALE = {};\n",
        literal(model.eval_scale));
    if (model.mom_min) text += fmt::format("export const MOM_MIN = {};\n", literal(*model.mom_min));
    if (model.mom_max) text += fmt::format("export const MOM_MAX = {};\n", literal(*model.mom_max));
    text += fmt::format("export const MOM_TARGET = {};\n", literal(model.mom_target));
    if (model.display.pawn_divisor) {
        text += fmt::format(
            "// The engine displayed 100 * value / DISPLAY_DIVISOR, truncated toward zero.\n"
            "export const DISPLAY_DIVISOR = {};\n",
            *model.display.pawn_divisor);
    }
    if (auto limit = eval_limit(model)) {
        text += fmt::format(
            "// The curve reads value clamped to +-EVAL_LIMIT, as the engine clamped it.\n"
            "export const EVAL_LIMIT = {};\n",
            literal(*limit));
    }
    text += "\n";
    text += "export function clampedMom(mom) {\n";
    if (model.mom_min) text += "  if (mom < MOM_MIN) return MOM_MIN;\n";
    if (model.mom_max) text += "  if (mom > MOM_MAX) return MOM_MAX;\n";
    text += "  return mom;\n}\n\n";
    text += fmt::format(
        "// The internal eval at which the engine wins half of its games at mom.\n"
        "export function a(mom) {{\n"
        "  const t = clampedMom(mom) / MOM_TARGET;\n"
        "  return EVAL_SCALE * ({});\n"
        "}}\n\n"
        "// How quickly the win rate rises around a(mom), in internal units.\n"
        "export function b(mom) {{\n"
        "  const t = clampedMom(mom) / MOM_TARGET;\n"
        "  return EVAL_SCALE * ({});\n"
        "}}\n\n",
        curve_expression(model.a_form, element("AS"), "t"),
        curve_expression(model.b_form, element("BS"), "t"));
    text += fmt::format(
        "// 1 / (1 + exp(-z)) without overflow.\n"
        "function logistic(z) {{\n"
        "  if (z < 0) {{\n"
        "    const e = Math.exp(z);\n"
        "    return e / (1.0 + e);\n"
        "  }}\n"
        "  return 1.0 / (1.0 + Math.exp(-z));\n"
        "}}\n\n"
        "function winRate(value, location, spread) {{\n"
        "  // A spread that is not positive is taken as the smallest positive one.\n"
        "  return logistic((value - location) / (spread < {0} ? {0} : spread));\n"
        "}}\n\n"
        "export function wdl(value, mom) {{\n"
        "{1}"
        "  const aMom = a(mom), bMom = b(mom);\n"
        "  const win = winRate(value, aMom, bMom), loss = winRate(-value, aMom, bMom);\n"
        "  return {{ win, draw: 1.0 - win - loss, loss }};\n"
        "}}\n\n"
        "export function wdlPerMille(value, mom) {{\n"
        "  const p = wdl(value, mom);\n"
        "  const win = Math.trunc(0.5 + 1000 * p.win), loss = Math.trunc(0.5 + 1000 * p.loss);\n"
        "  return {{ win, draw: 1000 - win - loss, loss }};\n"
        "}}\n\n"
        "// The internal eval the engine displays as +1.00 at mom.\n"
        "export function displayScale(mom) {{\n"
        "  return {2};\n"
        "}}\n\n"
        "export function toCp(value, mom) {{\n"
        "  return (100 * value) / displayScale(mom);\n"
        "}}\n\n"
        "export function fromCp(cp, mom) {{\n"
        "  return (cp * displayScale(mom)) / 100;\n"
        "}}\n",
        min_spread_literal(),
        eval_limit(model) ? "  value = Math.min(Math.max(value, -EVAL_LIMIT), EVAL_LIMIT);\n" : "",
        model.display.pawn_divisor ? "DISPLAY_DIVISOR" : "a(mom)");
    return text;
}

}  // namespace wdl::exporting::detail
