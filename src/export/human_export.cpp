#include "wdl/export/human_export.hpp"

#include <fmt/format.h>

#include "export_text.hpp"
#include "wdl/util/error.hpp"

namespace wdl::exporting {

namespace {

using detail::literal;

std::string list_of(const std::vector<double>& values, std::size_t begin, std::size_t end) {
    std::string items;
    for (std::size_t i = begin; i < end; ++i)
        items += (items.empty() ? "" : ", ") + literal(values[i]);
    return "[" + items + "]";
}

// Per class: [A0..A3], [B0..B3], [alpha1..], [beta1..], [tau0..], kappa, [map1..], eta,
// zeta, g; as the language's literal lines.
std::vector<std::string> class_rows(const human::HumanModelFile& file) {
    std::vector<std::string> rows;
    for (const auto& entry : file.classes) {
        const auto& p = entry.model.parameters;
        const std::size_t terms = std::size_t(human::level_terms(entry.model.form));
        const std::size_t levels = 2 * human::kCurveTerms;
        const std::size_t tempo = human::tempo_index(entry.model.form);
        const std::size_t tempo_end = tempo + std::size_t(human::tempo_terms(entry.model.form));
        const double g = human::has_difference(entry.model.form) ? p.back() : 0.0;
        const double kappa =
            human::has_ceiling(entry.model.form) ? p[human::ceiling_index(entry.model.form)] : 0.0;
        const std::size_t map = human::eval_map_index(entry.model.form);
        const std::size_t map_end =
            map + (human::has_eval_map(entry.model.form) ? human::kEvalMapKnots.size() : 0);
        const double eta =
            human::has_slip(entry.model.form) ? p[human::slip_index(entry.model.form)] : 0.0;
        const double zeta = human::has_zero_eval(entry.model.form)
                                ? p[human::zero_eval_index(entry.model.form)]
                                : 0.0;
        rows.push_back(fmt::format(
            "\"{}\": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}]",
            counts::speed_class_name(entry.speed), list_of(p, 0, human::kCurveTerms),
            list_of(p, human::kCurveTerms, levels), list_of(p, levels, levels + terms),
            list_of(p, levels + terms, levels + 2 * terms), list_of(p, tempo, tempo_end),
            literal(kappa), list_of(p, map, map_end), literal(eta), literal(zeta), literal(g)));
    }
    return rows;
}

// The eval map's knots in pawns, as a list literal of either language.
std::string map_knots() {
    std::vector<double> knots(human::kEvalMapKnots.begin(), human::kEvalMapKnots.end());
    return list_of(knots, 0, knots.size());
}

std::vector<std::string> conventions(const human::HumanModelFile& file) {
    std::vector<std::string> lines = {
        "",
        "The rating-aware WDL model of human games (wdlfit's docs/human-games.md). For the side",
        "to move: cp its displayed eval in centipawns from its view (as lichess shows it; a mate",
        "as +-100000, read as the +-1000 ceiling), material P+3N+3B+5R+9Q of both sides, move the",
        "full-move number (this model does not use it), elo its rating, opponent_elo the other's,",
        "time_control the PGN tag (\"600+5\"), whose lichess speed class (base + 40 x increment",
        "seconds) picks the class's parameters:",
        "  win = logistic((x - a) / b + s), loss = logistic((-x - a) / b - s), s = tau(l) + g d,",
        "  a = A(t) exp(alpha(l)), b = B(t) exp(beta(l)), x = cp / 100, t = material / 58,",
        "  l = ((elo + opponent_elo) / 2 - 1500) / 400, d = (elo - opponent_elo) / 400,",
        "A and B cubics (A0 + A1 t + ...), alpha and beta polynomials in l without a constant,",
        "tau a polynomial in l (tau0 + tau1 l + ...; the side to move's shift, empty if none),",
        "an eval at the +-1000 cp ceiling read as +-(10 + kappa) pawns, and below it |x| read",
        "through the eval map: each of MAP_KNOTS moved by its displacement (0 and 10 stay),",
        "linearly between them (empty: no map), plus eta |x| with |x| clamped to 10 (the side",
        "to move's slip, 0: none); at an eval shown as 0.00 (|cp| below ZERO_EVAL_BELOW) a is",
        "a times exp(zeta) (0: no such term).",
        "Classes:"};
    for (const auto& entry : file.classes)
        lines.push_back(fmt::format(
            "  {}: form {}, fitted on {:.0f} positions, the side to move "
            "rated {}..{}",
            counts::speed_class_name(entry.speed), human::human_form_name(entry.model.form),
            entry.positions, entry.rating_low, entry.rating_high));
    return lines;
}

std::string python_source(const human::HumanModelFile& file, std::vector<std::string> header) {
    std::string text = detail::commented(header, "# ");
    text += "\nimport math\n\n";
    text += fmt::format(
        "MATERIAL_TARGET = {}\nLEVEL_CENTRE = {}\nRATING_SCALE = {}\nCP_CEILING = {}\n"
        "MIN_SPREAD = {}\nMAP_KNOTS = {}\nZERO_EVAL_BELOW = {}\n\n",
        literal(human::kMaterialTarget), literal(human::kLevelCentre), literal(human::kRatingScale),
        literal(human::kCpCeiling), detail::min_spread_literal(), map_knots(),
        literal(human::kZeroEvalBelow));
    text +=
        "# Per speed class: [A0..A3], [B0..B3], [alpha1, ...], [beta1, ...], [tau0, ...],\n"
        "# kappa, [map1, ...], eta, zeta, g.\n"
        "MODELS = {\n";
    for (const auto& row : class_rows(file)) text += "    " + row + ",\n";
    text += "}\n\n\n";
    text +=
        "def speed_class(time_control):\n"
        "    \"\"\"lichess's speed class of a TimeControl tag: \"600+5\", \"180\" or \"-\".\"\"\"\n"
        "    if time_control == \"-\":\n"
        "        return \"correspondence\"\n"
        "    base, _, increment = time_control.partition(\"+\")\n"
        "    seconds = int(base) + 40 * (int(increment) if increment else 0)\n"
        "    if seconds < 30:\n"
        "        return \"ultraBullet\"\n"
        "    if seconds < 180:\n"
        "        return \"bullet\"\n"
        "    if seconds < 480:\n"
        "        return \"blitz\"\n"
        "    if seconds < 1500:\n"
        "        return \"rapid\"\n"
        "    return \"classical\"\n\n\n"
        "def _logistic(z):\n"
        "    if z < 0:\n"
        "        e = math.exp(z)\n"
        "        return e / (1.0 + e)\n"
        "    return 1.0 / (1.0 + math.exp(-z))\n\n\n"
        "def _curve(cubic, exponent, t, l):\n"
        "    value = 0.0\n"
        "    for c in reversed(cubic):\n"
        "        value = value * t + c\n"
        "    power = 0.0\n"
        "    l_power = 1.0\n"
        "    for c in exponent:\n"
        "        l_power *= l\n"
        "        power += c * l_power\n"
        "    return value * math.exp(power)\n\n\n"
        "def _polynomial(coefficients, l):\n"
        "    value = 0.0\n"
        "    for c in reversed(coefficients):\n"
        "        value = value * l + c\n"
        "    return value\n\n\n"
        "def _map_weight(knot, pawns):\n"
        "    at = MAP_KNOTS[knot]\n"
        "    below = 0.0 if knot == 0 else MAP_KNOTS[knot - 1]\n"
        "    above = CP_CEILING / 100 if knot + 1 == len(MAP_KNOTS) else MAP_KNOTS[knot + 1]\n"
        "    if pawns <= below or pawns >= above:\n"
        "        return 0.0\n"
        "    if pawns <= at:\n"
        "        return (pawns - below) / (at - below)\n"
        "    return (above - pawns) / (above - at)\n\n\n"
        "def _pawns(cp, kappa, moves, eta):\n"
        "    x = min(max(cp, -CP_CEILING), CP_CEILING) / 100\n"
        "    slip = eta * abs(x)\n"
        "    sign = -1.0 if cp < 0 else 1.0\n"
        "    if abs(cp) >= CP_CEILING:\n"
        "        return x + sign * kappa + slip\n"
        "    for knot, move in enumerate(moves):\n"
        "        x += sign * _map_weight(knot, abs(cp) / 100) * move\n"
        "    return x + slip\n\n\n"
        "def wdl(cp, material, move, elo, opponent_elo, time_control):\n"
        "    \"\"\"(win, draw, loss) of the side to move; see the header.\"\"\"\n"
        "    speed = speed_class(time_control)\n"
        "    if speed not in MODELS:\n"
        "        raise ValueError(\"no model of \" + speed + \" games\")\n"
        "    a_cubic, b_cubic, alpha, beta, tau, kappa, moves, eta, zeta, g = MODELS[speed]\n"
        "    x = _pawns(cp, kappa, moves, eta)\n"
        "    t = material / MATERIAL_TARGET\n"
        "    l = ((elo + opponent_elo) / 2 - LEVEL_CENTRE) / RATING_SCALE\n"
        "    a = _curve(a_cubic, alpha, t, l)\n"
        "    if abs(cp) < ZERO_EVAL_BELOW:\n"
        "        a *= math.exp(zeta)\n"
        "    b = _curve(b_cubic, beta, t, l)\n"
        "    if b < MIN_SPREAD:\n"
        "        b = MIN_SPREAD\n"
        "    d = _polynomial(tau, l) + g * (elo - opponent_elo) / RATING_SCALE\n"
        "    win = _logistic((x - a) / b + d)\n"
        "    loss = _logistic((-x - a) / b - d)\n"
        "    return (win, 1 - win - loss, loss)\n";
    return text;
}

std::string javascript_source(const human::HumanModelFile& file, std::vector<std::string> header) {
    std::string text = detail::commented(header, "// ");
    text += "//\n// An ES module without imports.\n\n";
    text += fmt::format(
        "export const MATERIAL_TARGET = {};\nexport const LEVEL_CENTRE = {};\n"
        "export const RATING_SCALE = {};\nexport const CP_CEILING = {};\n"
        "export const MIN_SPREAD = {};\nexport const MAP_KNOTS = Object.freeze({});\n"
        "export const ZERO_EVAL_BELOW = {};\n\n",
        literal(human::kMaterialTarget), literal(human::kLevelCentre), literal(human::kRatingScale),
        literal(human::kCpCeiling), detail::min_spread_literal(), map_knots(),
        literal(human::kZeroEvalBelow));
    text +=
        "// Per speed class: [A0..A3], [B0..B3], [alpha1, ...], [beta1, ...], [tau0, ...],\n"
        "// kappa, [map1, ...], eta, zeta, g.\n"
        "export const MODELS = Object.freeze({\n";
    for (const auto& row : class_rows(file)) text += "    " + row + ",\n";
    text += "});\n\n";
    text +=
        "// lichess's speed class of a TimeControl tag: \"600+5\", \"180\" or \"-\".\n"
        "export function speedClass(timeControl) {\n"
        "    if (timeControl === \"-\") return \"correspondence\";\n"
        "    const [base, increment] = timeControl.split(\"+\");\n"
        "    const seconds = parseInt(base, 10) + 40 * (increment ? parseInt(increment, 10) : 0);\n"
        "    if (seconds < 30) return \"ultraBullet\";\n"
        "    if (seconds < 180) return \"bullet\";\n"
        "    if (seconds < 480) return \"blitz\";\n"
        "    if (seconds < 1500) return \"rapid\";\n"
        "    return \"classical\";\n"
        "}\n\n"
        "function logistic(z) {\n"
        "    if (z < 0) {\n"
        "        const e = Math.exp(z);\n"
        "        return e / (1.0 + e);\n"
        "    }\n"
        "    return 1.0 / (1.0 + Math.exp(-z));\n"
        "}\n\n"
        "function curve(cubic, exponent, t, l) {\n"
        "    let value = 0.0;\n"
        "    for (let i = cubic.length - 1; i >= 0; --i) value = value * t + cubic[i];\n"
        "    let power = 0.0;\n"
        "    let lPower = 1.0;\n"
        "    for (const c of exponent) {\n"
        "        lPower *= l;\n"
        "        power += c * lPower;\n"
        "    }\n"
        "    return value * Math.exp(power);\n"
        "}\n\n"
        "function polynomial(coefficients, l) {\n"
        "    let value = 0.0;\n"
        "    for (let i = coefficients.length - 1; i >= 0; --i) value = value * l + "
        "coefficients[i];\n"
        "    return value;\n"
        "}\n\n"
        "function mapWeight(knot, pawns) {\n"
        "    const at = MAP_KNOTS[knot];\n"
        "    const below = knot === 0 ? 0.0 : MAP_KNOTS[knot - 1];\n"
        "    const above = knot + 1 === MAP_KNOTS.length ? CP_CEILING / 100 : MAP_KNOTS[knot + "
        "1];\n"
        "    if (pawns <= below || pawns >= above) return 0.0;\n"
        "    if (pawns <= at) return (pawns - below) / (at - below);\n"
        "    return (above - pawns) / (above - at);\n"
        "}\n\n"
        "function pawnsOf(cp, kappa, moves, eta) {\n"
        "    let x = Math.min(Math.max(cp, -CP_CEILING), CP_CEILING) / 100;\n"
        "    const slip = eta * Math.abs(x);\n"
        "    const sign = cp < 0 ? -1.0 : 1.0;\n"
        "    if (Math.abs(cp) >= CP_CEILING) return x + sign * kappa + slip;\n"
        "    for (let knot = 0; knot < moves.length; ++knot)\n"
        "        x += sign * mapWeight(knot, Math.abs(cp) / 100) * moves[knot];\n"
        "    return x + slip;\n"
        "}\n\n"
        "// [win, draw, loss] of the side to move; see the header.\n"
        "export function wdl(cp, material, move, elo, opponentElo, timeControl) {\n"
        "    const speed = speedClass(timeControl);\n"
        "    if (!(speed in MODELS)) throw new Error(\"no model of \" + speed + \" games\");\n"
        "    const [aCubic, bCubic, alpha, beta, tau, kappa, moves, eta, zeta, g] = "
        "MODELS[speed];\n"
        "    const x = pawnsOf(cp, kappa, moves, eta);\n"
        "    const t = material / MATERIAL_TARGET;\n"
        "    const l = ((elo + opponentElo) / 2 - LEVEL_CENTRE) / RATING_SCALE;\n"
        "    let a = curve(aCubic, alpha, t, l);\n"
        "    if (Math.abs(cp) < ZERO_EVAL_BELOW) a *= Math.exp(zeta);\n"
        "    let b = curve(bCubic, beta, t, l);\n"
        "    if (b < MIN_SPREAD) b = MIN_SPREAD;\n"
        "    const d = polynomial(tau, l) + g * (elo - opponentElo) / RATING_SCALE;\n"
        "    const win = logistic((x - a) / b + d);\n"
        "    const loss = logistic((-x - a) / b - d);\n"
        "    return [win, 1 - win - loss, loss];\n"
        "}\n";
    return text;
}

}  // namespace

std::string export_human_model(const human::HumanModelFile& file,
                               const std::vector<std::string>& provenance, Language language) {
    std::vector<std::string> header = provenance;
    for (auto& line : conventions(file)) header.push_back(std::move(line));
    switch (language) {
        case Language::Python:
            return python_source(file, std::move(header));
        case Language::JavaScript:
            return javascript_source(file, std::move(header));
        default:
            throw Error(fmt::format("a human model is exported in python or javascript, not {}",
                                    util::name_of(kLanguageNames, language)));
    }
}

}  // namespace wdl::exporting
