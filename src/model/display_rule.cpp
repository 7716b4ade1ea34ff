#include "wdl/model/display_rule.hpp"

#include <fmt/format.h>

#include <charconv>

namespace wdl::model {

std::optional<double> eval_limit_of(std::string_view eval_expression) {
    std::size_t clamp = eval_expression.find("clamp(");
    if (clamp == std::string_view::npos) return std::nullopt;
    // The bounds are the clamp's last two arguments; the upper one ends the expression.
    std::size_t comma = eval_expression.rfind(',');
    if (comma == std::string_view::npos || comma < clamp) return std::nullopt;
    std::string_view upper = eval_expression.substr(comma + 1);
    while (!upper.empty() && upper.front() == ' ') upper.remove_prefix(1);
    double value = 0;
    auto [end, error] = std::from_chars(upper.data(), upper.data() + upper.size(), value);
    if (error != std::errc() || value <= 0) return std::nullopt;
    return value;
}

DisplayRule stockfish_display_rule(std::optional<int> normalize_constant,
                                   const std::optional<std::string>& eval_expression) {
    DisplayRule rule;
    rule.pawn_divisor = normalize_constant;
    if (eval_expression) rule.eval_limit = eval_limit_of(*eval_expression);
    return rule;
}

std::string display_rule_text(const DisplayRule& rule) {
    std::string text = rule.pawn_divisor ? fmt::format("100 v / {}, truncated", *rule.pawn_divisor)
                                         : std::string("100 v / a(mom), rounded");
    if (rule.eval_limit) text += fmt::format("; curve input clamped to +-{:g}", *rule.eval_limit);
    return text;
}

}  // namespace wdl::model
