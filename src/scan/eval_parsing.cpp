#include "wdl/scan/eval_parsing.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace wdl::scan {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Exact centipawns of a decimal number (optional sign, digits, optional '.' and digits):
// 100 * value rounded half away from zero, in one pass over the token. Only the first three
// decimals matter: two give the centipawns, the third rounds. Magnitudes are saturated far
// above the clamp so that long digit strings cannot overflow.
std::optional<int> exact_centipawns(std::string_view token) {
    constexpr long long kSaturation = 1'000'000'000;
    const char* p = token.data();
    const char* const end = p + token.size();
    bool negative = false;
    if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
    const char* const whole_start = p;
    long long whole = 0;
    for (; p != end && is_digit(*p); ++p)
        if (whole < kSaturation) whole = whole * 10 + (*p - '0');
    bool has_digits = p != whole_start;
    long long centipawns = whole * 100;
    if (p != end && *p == '.') {
        const char* const decimals = ++p;
        while (p != end && is_digit(*p)) ++p;
        std::size_t count = std::size_t(p - decimals);
        has_digits = has_digits || count > 0;
        if (count > 0) centipawns += 10 * (decimals[0] - '0');
        if (count > 1) centipawns += decimals[1] - '0';
        if (count > 2 && decimals[2] >= '5') ++centipawns;
    }
    if (!has_digits || p != end) return std::nullopt;
    centipawns = std::min(centipawns, kSaturation);
    return int(negative ? -centipawns : centipawns);
}

// A decimal number as exact_centipawns accepts it.
bool is_decimal_number(std::string_view token) { return exact_centipawns(token).has_value(); }

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

// Hand-written scans: string_view's find_first_of calls memchr once per character, which
// dominates the cost on the scanner's hot path.
std::string_view skip_leading_blanks(std::string_view text) {
    std::size_t first = 0;
    while (first < text.size() && (text[first] == ' ' || text[first] == '\t' ||
                                   text[first] == '\r' || text[first] == '\n'))
        ++first;
    return text.substr(first);
}

std::size_t find_space_or_slash(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == ' ' || text[i] == '/') return i;
    return std::string_view::npos;
}

}  // namespace

std::optional<int> pawns_to_centipawns(std::string_view token, EvalParsing parsing) {
    std::optional<int> centipawns;
    if (parsing == EvalParsing::Exact) {
        centipawns = exact_centipawns(token);
    } else if (is_decimal_number(token)) {
        centipawns = legacy_centipawns(token);
    }
    if (!centipawns) return std::nullopt;
    return std::clamp(*centipawns, -kMaxScore, kMaxScore);
}

std::optional<int> comment_eval(std::string_view comment, EvalParsing parsing) {
    comment = skip_leading_blanks(comment);
    std::size_t delimiter = find_space_or_slash(comment);
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
