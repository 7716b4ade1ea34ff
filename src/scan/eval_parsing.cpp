#include "wdl/scan/eval_parsing.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace wdl::scan {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A decimal number: optional sign, digits, optional '.' and digits, at least one digit.
bool is_decimal_number(std::string_view token) {
    std::size_t i = (!token.empty() && (token[0] == '+' || token[0] == '-')) ? 1 : 0;
    std::size_t digits = 0;
    while (i < token.size() && is_digit(token[i])) ++i, ++digits;
    if (i < token.size() && token[i] == '.') {
        ++i;
        while (i < token.size() && is_digit(token[i])) ++i, ++digits;
    }
    return digits > 0 && i == token.size();
}

// Exact centipawns from the digits: 100 * value rounded half away from zero. Magnitudes are
// saturated well above the clamp so that long digit strings cannot overflow.
int exact_centipawns(std::string_view token) {
    bool negative = token[0] == '-';
    std::size_t i = (token[0] == '+' || token[0] == '-') ? 1 : 0;
    long long whole = 0;
    for (; i < token.size() && is_digit(token[i]); ++i)
        whole = std::min(whole * 10 + (token[i] - '0'), 1'000'000'000LL);
    int fraction_digits[3] = {0, 0, 0};
    if (i < token.size() && token[i] == '.') {
        ++i;
        for (int k = 0; k < 3 && i < token.size(); ++k, ++i) fraction_digits[k] = token[i] - '0';
    }
    long long centipawns = whole * 100 + fraction_digits[0] * 10 + fraction_digits[1];
    if (fraction_digits[2] >= 5) ++centipawns;
    centipawns = std::min(centipawns, 1'000'000'000LL);
    return int(negative ? -centipawns : centipawns);
}

// The original's arithmetic: the token as a correctly rounded 32-bit float, times 100 in
// float, truncated toward zero.
int legacy_centipawns(std::string_view token) {
    if (token[0] == '+') token.remove_prefix(1);
    float pawns = 0;
    std::from_chars(token.data(), token.data() + token.size(), pawns);
    float scaled = 100.0f * pawns;
    if (scaled >= 1e9f) return 1'000'000'000;
    if (scaled <= -1e9f) return -1'000'000'000;
    return int(scaled);
}

std::string_view skip_leading_blanks(std::string_view text) {
    std::size_t first = text.find_first_not_of(" \t\r\n");
    return first == std::string_view::npos ? std::string_view{} : text.substr(first);
}

}  // namespace

std::optional<int> pawns_to_centipawns(std::string_view token, EvalParsing parsing) {
    if (!is_decimal_number(token)) return std::nullopt;
    int centipawns =
        parsing == EvalParsing::Exact ? exact_centipawns(token) : legacy_centipawns(token);
    return std::clamp(centipawns, -kMaxScore, kMaxScore);
}

std::optional<int> comment_eval(std::string_view comment, EvalParsing parsing) {
    comment = skip_leading_blanks(comment);
    std::size_t delimiter = comment.find_first_of(" /");
    if (delimiter == std::string_view::npos) return std::nullopt;
    std::string_view token = comment.substr(0, delimiter);
    if (token.size() >= 2 && token[1] == 'M') return token[0] == '+' ? kMateScore : -kMateScore;
    return pawns_to_centipawns(token, parsing);
}

std::optional<int> lichess_eval(std::string_view comment, EvalParsing parsing) {
    constexpr std::string_view marker = "[%eval ";
    std::size_t start = comment.find(marker);
    if (start == std::string_view::npos) return std::nullopt;
    std::string_view rest = skip_leading_blanks(comment.substr(start + marker.size()));
    std::string_view token = rest.substr(0, rest.find_first_of(" ,]"));
    if (!token.empty() && token[0] == '#') {
        bool black_mates = token.size() > 1 && token[1] == '-';
        return black_mates ? -kMateScore : kMateScore;
    }
    return pawns_to_centipawns(token, parsing);
}

int bin_eval(int centipawns, int bin_width) {
    if (centipawns == kMateScore || centipawns == -kMateScore) return centipawns;
    int quotient = centipawns / bin_width;
    int remainder = centipawns % bin_width;
    if (2 * std::abs(remainder) >= bin_width) quotient += centipawns < 0 ? -1 : 1;
    return quotient * bin_width;
}

}  // namespace wdl::scan
