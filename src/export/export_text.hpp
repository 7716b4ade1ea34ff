#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/model/wdl_model.hpp"

// What every language's export shares: the one description of the model's arithmetic, which
// each language spells in its own syntax. Every export computes exactly what WdlModel computes,
// operation by operation, so that its doubles agree with wdlfit's to the last bits.
namespace wdl::exporting::detail {

// A double as a floating-point literal that reads back as the same double in every exported
// language: the shortest such digits, and a decimal point where they would read as an integer
// (Rust takes no integer literal for an f64).
std::string literal(double value);

// The header comment's lines, without comment markers: the provenance, then what the eval and
// the mom are, the model's curves, and what the functions return.
std::vector<std::string> header_lines(const model::WdlModel& model,
                                      const std::vector<std::string>& provenance);

// The display rule in words: how the engine displayed a value, and the clamp of the curve's
// input (part of header_lines; the JSON's conventions).
std::vector<std::string> display_lines(const model::WdlModel& model);
// The clamp of the curve's input in internal units, where the engine clamped it.
std::optional<double> eval_limit(const model::WdlModel& model);

// The lines with `marker` ("// ", "# ") before each, and the marker alone (trailing space
// removed) on an empty line.
std::string commented(const std::vector<std::string>& lines, std::string_view marker);

// A curve's value at `t` by Horner's rule, highest power first, as curve_value computes it:
// "((c[0] * t + c[1]) * t + c[2]) * t + c[3]", and "(...) / (1.0 + c[d] * t)" for a rational
// form; `element(k)` names coefficient k in the language.
std::string curve_expression(model::CurveForm form, const std::function<std::string(int)>& element,
                             std::string_view t);

// The spread below which WdlModel takes kMinSpread instead, as a literal.
std::string min_spread_literal();

std::string cpp_source(const model::WdlModel& model, const std::vector<std::string>& header);
std::string c_source(const model::WdlModel& model, const std::vector<std::string>& header);
std::string rust_source(const model::WdlModel& model, const std::vector<std::string>& header);
std::string python_source(const model::WdlModel& model, const std::vector<std::string>& header);
std::string javascript_source(const model::WdlModel& model, const std::vector<std::string>& header);
std::string json_source(const model::WdlModel& model, const std::vector<std::string>& provenance,
                        const std::vector<std::string>& conventions);

}  // namespace wdl::exporting::detail
