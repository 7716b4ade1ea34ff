// The Python export: a module of the standard library only, usable next to python-chess: its
// per mille result has the fields of chess.engine.Wdl (wins, draws, losses), and cp_wdl takes
// a displayed eval with ply or material as python-chess's Score.wdl takes them.
#include <fmt/format.h>

#include "export_text.hpp"

namespace wdl::exporting::detail {
namespace {

std::string tuple_line(const char* name, const model::Coefficients& c) {
    std::string items;
    for (double value : c) items += (items.empty() ? "" : ", ") + literal(value);
    return fmt::format("{} = ({}{})\n", name, items, c.size() == 1 ? "," : "");
}

// The mom of a position from python-chess's ply (or the material), as the model counts it.
std::string mom_of_position(const model::WdlModel& model) {
    switch (model.mom_type) {
        case model::MomType::Material:
            return "    if material is None:\n"
                   "        raise ValueError(\"this model depends on the material: give "
                   "material=\")\n"
                   "    return material\n";
        case model::MomType::Move:
            return "    if ply is None:\n"
                   "        raise ValueError(\"this model depends on the move: give ply=\")\n"
                   "    return ply // 2 + 1\n";
        case model::MomType::Ply:
            return "    if ply is None:\n"
                   "        raise ValueError(\"this model depends on the ply: give ply=\")\n"
                   "    return ply\n";
    }
    return {};
}

// The constants: the coefficients, the scales, the mom's range, the display divisor, the clamp.
std::string constants(const model::WdlModel& model) {
    std::string text = tuple_line("AS", model.as);
    text += tuple_line("BS", model.bs);
    text += fmt::format(
        "\n# Internal units per unit of the eval the coefficients take.\n"
        "EVAL_SCALE = {}\n",
        literal(model.eval_scale));
    if (model.mom_min) text += fmt::format("MOM_MIN = {}\n", literal(*model.mom_min));
    if (model.mom_max) text += fmt::format("MOM_MAX = {}\n", literal(*model.mom_max));
    text += fmt::format("MOM_TARGET = {}\n", literal(model.mom_target));
    if (model.display.pawn_divisor) {
        text += fmt::format(
            "# The engine displayed 100 * value / DISPLAY_DIVISOR, truncated toward zero.\n"
            "DISPLAY_DIVISOR = {}\n",
            *model.display.pawn_divisor);
    }
    if (auto limit = eval_limit(model)) {
        text += fmt::format(
            "# The curve reads value clamped to +-EVAL_LIMIT, as the engine did.\n"
            "EVAL_LIMIT = {}\n",
            literal(*limit));
    }
    text += "\n\n";
    return text;
}

// clamped_mom, a(mom) and b(mom).
std::string curve_functions(const model::WdlModel& model) {
    auto element = [](const char* name) {
        return [name](int k) { return fmt::format("{}[{}]", name, k); };
    };
    std::string text = "def clamped_mom(mom):\n";
    if (model.mom_min) text += "    if mom < MOM_MIN:\n        return MOM_MIN\n";
    if (model.mom_max) text += "    if mom > MOM_MAX:\n        return MOM_MAX\n";
    text += "    return mom\n\n\n";
    text += fmt::format(
        "def a(mom):\n"
        "    \"\"\"The internal eval at which the engine wins half of its games at mom.\"\"\"\n"
        "    t = clamped_mom(mom) / MOM_TARGET\n"
        "    return EVAL_SCALE * ({})\n\n\n"
        "def b(mom):\n"
        "    \"\"\"How quickly the win rate rises around a(mom), in internal units.\"\"\"\n"
        "    t = clamped_mom(mom) / MOM_TARGET\n"
        "    return EVAL_SCALE * ({})\n\n\n",
        curve_expression(model.a_form, element("AS"), "t"),
        curve_expression(model.b_form, element("BS"), "t"));
    return text;
}

}  // namespace

std::string python_source(const model::WdlModel& model, const std::vector<std::string>& header) {
    // Raw, so that a backslash in the provenance stays one.
    std::string text = "r\"\"\"" + commented(header, "");
    text +=
        "\n"
        "wdl(value, mom) gives the probabilities, wdl_per_mille(value, mom) what Stockfish\n"
        "prints as a Wdl(wins, draws, losses) like python-chess's chess.engine.Wdl, to_cp(value,\n"
        "mom) the displayed eval and from_cp(cp, mom) the internal one. cp_wdl(cp, ply=...,\n"
        "material=...) takes python-chess's conventions: a displayed eval in centipawns and the\n"
        "position's ply (or material). Standard library only; python-chess is not needed.\n"
        "\"\"\"\n\n"
        "import math\n"
        "from typing import NamedTuple, Optional\n\n";
    text += constants(model);
    text += curve_functions(model);
    text += fmt::format(
        "def _logistic(z):\n"
        "    # 1 / (1 + exp(-z)) without overflow.\n"
        "    if z < 0:\n"
        "        e = math.exp(z)\n"
        "        return e / (1.0 + e)\n"
        "    return 1.0 / (1.0 + math.exp(-z))\n\n\n"
        "def _win_rate(value, location, spread):\n"
        "    # A spread that is not positive is taken as the smallest positive one.\n"
        "    if spread < {0}:\n"
        "        spread = {0}\n"
        "    return _logistic((value - location) / spread)\n\n\n"
        "def wdl(value, mom):\n"
        "    \"\"\"The probabilities (win, draw, loss) of the side to move.\"\"\"\n"
        "{2}"
        "    a_mom, b_mom = a(mom), b(mom)\n"
        "    win = _win_rate(value, a_mom, b_mom)\n"
        "    loss = _win_rate(-value, a_mom, b_mom)\n"
        "    return (win, 1.0 - win - loss, loss)\n\n\n"
        "class Wdl(NamedTuple):\n"
        "    \"\"\"Per mille, with the fields of python-chess's chess.engine.Wdl.\"\"\"\n\n"
        "    wins: int\n"
        "    draws: int\n"
        "    losses: int\n\n\n"
        "def wdl_per_mille(value, mom):\n"
        "    win, _, loss = wdl(value, mom)\n"
        "    wins, losses = int(0.5 + 1000 * win), int(0.5 + 1000 * loss)\n"
        "    return Wdl(wins, 1000 - wins - losses, losses)\n\n\n"
        "def display_scale(mom):\n"
        "    \"\"\"The internal eval the engine displays as +1.00 at mom.\"\"\"\n"
        "    return {3}\n\n\n"
        "def to_cp(value, mom):\n"
        "    return 100 * value / display_scale(mom)\n\n\n"
        "def from_cp(cp, mom):\n"
        "    return cp * display_scale(mom) / 100\n\n\n"
        "def mom_of_position(ply: Optional[int] = None, material: Optional[int] = None):\n"
        "    \"\"\"The model's mom of a position from its ply or its material.\"\"\"\n"
        "{1}\n\n"
        "def cp_wdl(cp, *, ply: Optional[int] = None, material: Optional[int] = None):\n"
        "    \"\"\"Per mille for a displayed eval in centipawns, as python-chess's "
        "Cp(cp).wdl(ply=ply).\"\"\"\n"
        "    mom = mom_of_position(ply, material)\n"
        "    return wdl_per_mille(from_cp(cp, mom), mom)\n",
        min_spread_literal(), mom_of_position(model),
        eval_limit(model) ? "    value = min(max(value, -EVAL_LIMIT), EVAL_LIMIT)\n" : "",
        model.display.pawn_divisor ? "DISPLAY_DIVISOR" : "a(mom)");
    return text;
}

}  // namespace wdl::exporting::detail
