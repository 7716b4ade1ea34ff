#include "wdl/export/model_export.hpp"

#include <fmt/format.h>

#include "export_text.hpp"
#include "wdl/util/error.hpp"

namespace wdl::exporting {

std::string export_model(const model::WdlModel& model, const std::vector<std::string>& provenance,
                         Language language) {
    auto header = detail::header_lines(model, provenance);
    switch (language) {
        case Language::Cpp:
            return detail::cpp_source(model, header);
        case Language::C:
            return detail::c_source(model, header);
        case Language::Rust:
            return detail::rust_source(model, header);
        case Language::Python:
            return detail::python_source(model, header);
        case Language::JavaScript:
            return detail::javascript_source(model, header);
        case Language::Json:
            return detail::json_source(model, provenance,
                                       detail::header_lines(model, /*provenance=*/{}));
    }
    throw Error("unknown export language");
}

namespace detail {

std::string literal(double value) {
    // fmt prints the shortest digits that read back as the same double.
    std::string text = fmt::format("{}", value);
    if (text.find_first_of(".en") == std::string::npos) text += ".0";
    return text;
}

namespace {

std::string mom_line(const model::WdlModel& model) {
    std::string what;
    switch (model.mom_type) {
        case model::MomType::Material:
            what = "the material, P + 3N + 3B + 5R + 9Q of both sides";
            break;
        case model::MomType::Move:
            what = "the full-move number (Stockfish 16.1 takes ply / 2 + 1)";
            break;
        case model::MomType::Ply:
            what = "the ply, the half-moves played";
            break;
    }
    std::string clamp;
    if (model.mom_min && model.mom_max)
        clamp = fmt::format(", clamped to [{:g}, {:g}]", *model.mom_min, *model.mom_max);
    else if (model.mom_min)
        clamp = fmt::format(", raised to at least {:g}", *model.mom_min);
    else if (model.mom_max)
        clamp = fmt::format(", capped at {:g}", *model.mom_max);
    return fmt::format("mom: {}{}; t = mom / {}.", what, clamp, model.mom_target);
}

}  // namespace

std::vector<std::string> display_lines(const model::WdlModel& model) {
    std::vector<std::string> lines;
    const auto& rule = model.display;
    if (!rule.pawn_divisor) {
        lines.push_back(
            "The displayed eval is 100 * value / a(mom) centipawns, rounded (Stockfish 17 on): "
            "a");
        lines.push_back("displayed +1.00 wins half of the games.");
    } else {
        lines.push_back(fmt::format(
            "The engine displayed 100 * value / {} centipawns in integer division (truncated): "
            "its",
            *rule.pawn_divisor));
        lines.push_back(fmt::format("{}. to_cp gives it unrounded; from_cp(cp) the value",
                                    model.eval_scale != 1
                                        ? "PawnValueEg (Stockfish 12 to 15)"
                                        : "NormalizeToPawnValue (Stockfish 15.1 to 16.1)"));
        lines.push_back("nearest 0 that it displays as cp.");
    }
    if (auto limit = eval_limit(model)) {
        lines.push_back(fmt::format(
            "The curve reads value clamped to +-{:g} internal units, as the engine clamped it.",
            *limit));
    }
    return lines;
}

std::optional<double> eval_limit(const model::WdlModel& model) {
    if (!model.display.eval_limit) return std::nullopt;
    return model.eval_scale * *model.display.eval_limit;
}

std::vector<std::string> header_lines(const model::WdlModel& model,
                                      const std::vector<std::string>& provenance) {
    std::vector<std::string> lines = provenance;
    if (!lines.empty()) lines.emplace_back();
    lines.push_back("value: the engine's internal eval (Stockfish's Value), for the side to move.");
    lines.push_back(mom_line(model));
    lines.push_back(
        "a(mom) = EvalScale * p_a(t) and b(mom) = EvalScale * p_b(t), in internal "
        "units, with p_a");
    lines.push_back(
        fmt::format("{} and p_b {}: their coefficients as and bs highest power first "
                    "(a rational form's",
                    model::curve_form_name(model.a_form), model::curve_form_name(model.b_form)));
    lines.push_back("numerator's, then d of its denominator 1 + d t).");
    if (model.eval_scale != 1) {
        lines.push_back(
            fmt::format("EvalScale = {:g}: the coefficients take x = 100 * value / "
                        "PawnValueEg, as Stockfish 12 to 15.",
                        model.eval_scale));
    }
    lines.push_back(
        "win = 1 / (1 + exp((a - value) / b)), loss the same of -value, draw = 1 - "
        "win - loss.");
    lines.push_back(
        "Per mille as Stockfish's UCI prints them: win and loss int(0.5 + 1000 p), "
        "draw the rest.");
    for (auto& line : display_lines(model)) lines.push_back(std::move(line));
    return lines;
}

std::string commented(const std::vector<std::string>& lines, std::string_view marker) {
    std::string text;
    for (const auto& line : lines) {
        std::string prefixed = std::string(marker) + line;
        while (!prefixed.empty() && prefixed.back() == ' ') prefixed.pop_back();
        text += prefixed + "\n";
    }
    return text;
}

std::string curve_expression(model::CurveForm form, const std::function<std::string(int)>& element,
                             std::string_view t) {
    std::string text = element(0);
    for (int k = 1; k <= form.degree; ++k) {
        if (k > 1) text = "(" + text + ")";
        text += fmt::format(" * {} + {}", t, element(k));
    }
    if (form.kind == model::CurveKind::Rational)
        text = fmt::format("({}) / (1.0 + {} * {})", text, element(form.degree + 1), t);
    return text;
}

std::string min_spread_literal() { return literal(model::kMinSpread); }

}  // namespace detail
}  // namespace wdl::exporting
