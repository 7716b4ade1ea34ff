#include "wdl/games/eval_parsing.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>

namespace wdl::games {
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

bool is_pgn_whitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The end of a comment's first token: a space or '/', as the original reads it; in exact mode
// any PGN whitespace too, so that a comment wrapped after its score keeps it.
std::size_t find_token_end(std::string_view text, EvalParsing parsing) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == ' ' || text[i] == '/') return i;
        if (parsing == EvalParsing::Exact && is_pgn_whitespace(text[i])) return i;
    }
    return std::string_view::npos;
}

// "12", "-436": digits with an optional sign and no decimal point.
bool is_bare_integer(std::string_view token) {
    if (!token.empty() && (token[0] == '+' || token[0] == '-')) token.remove_prefix(1);
    return !token.empty() && std::all_of(token.begin(), token.end(), is_digit);
}

// Nearly every engine comment starts like "+0.57/" or "-1.10 ": an optional sign, one or two
// digits, a point, two decimals and the delimiter. Returns the value in hundredths (and its
// sign), or -1 for any other start, which the general path then reads.
int two_decimal_hundredths(std::string_view comment, bool& negative) {
    const char* p = comment.data();
    const char* const end = p + comment.size();
    negative = false;
    if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
    if (end - p < 5 || !is_digit(p[0])) return -1;
    int whole = *p++ - '0';
    if (is_digit(*p)) {
        whole = 10 * whole + (*p++ - '0');
        if (end - p < 4) return -1;
    }
    if (p[0] != '.' || !is_digit(p[1]) || !is_digit(p[2]) || (p[3] != '/' && p[3] != ' '))
        return -1;
    return 100 * whole + 10 * (p[1] - '0') + (p[2] - '0');
}

// legacy_centipawns of "H.hh" for every hundredths value up to the clamp; the original's float
// arithmetic is symmetric in the sign, and every larger value clamps to kMaxScore.
std::array<int, kMaxScore + 1> make_legacy_centipawns_of_hundredths() {
    std::array<int, kMaxScore + 1> centipawns{};
    for (int hundredths = 0; hundredths <= kMaxScore; ++hundredths) {
        char token[16];
        auto end = std::to_chars(token, token + sizeof token, hundredths / 100).ptr;
        *end++ = '.';
        *end++ = char('0' + hundredths / 10 % 10);
        *end++ = char('0' + hundredths % 10);
        centipawns[std::size_t(hundredths)] = legacy_centipawns({token, end});
    }
    return centipawns;
}

// Built before main (nothing reads it earlier), so the hot path has no initialisation guard.
const std::array<int, kMaxScore + 1> legacy_centipawns_of_hundredths =
    make_legacy_centipawns_of_hundredths();

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

namespace {

// comment_eval for what the two-decimal shortcut does not take; kept out of line so that the
// shortcut runs without its register saves.
[[gnu::noinline]] std::optional<int> general_comment_eval(std::string_view comment,
                                                          EvalParsing parsing) {
    std::size_t delimiter = find_token_end(comment, parsing);
    if (delimiter == std::string_view::npos) return std::nullopt;
    std::string_view token = comment.substr(0, delimiter);
    if (token.size() >= 2 && token[1] == 'M') return token[0] == '+' ? kMateScore : -kMateScore;
    // A score has a decimal point: OpenBench's "12/17 41 40000" starts with a depth and
    // "436 13/19" with a raw number, neither of them pawns (the original reads them as such).
    if (parsing == EvalParsing::Exact && is_bare_integer(token)) return std::nullopt;
    return pawns_to_centipawns(token, parsing);
}

}  // namespace

int comment_eval_value(std::string_view comment, EvalParsing parsing) {
    comment = skip_leading_blanks(comment);
    bool negative = false;
    if (int hundredths = two_decimal_hundredths(comment, negative); hundredths >= 0) {
        int centipawns = std::min(hundredths, kMaxScore);
        if (parsing == EvalParsing::Legacy)
            centipawns = legacy_centipawns_of_hundredths[std::size_t(centipawns)];
        return negative ? -centipawns : centipawns;
    }
    return general_comment_eval(comment, parsing).value_or(kNoEval);
}

std::optional<int> comment_eval(std::string_view comment, EvalParsing parsing) {
    int value = comment_eval_value(comment, parsing);
    if (value == kNoEval) return std::nullopt;
    return value;
}

bool starts_with_bare_integer(std::string_view comment) {
    comment = skip_leading_blanks(comment);
    std::size_t end = 0;
    while (end < comment.size() && !is_pgn_whitespace(comment[end]) && comment[end] != '/') ++end;
    return is_bare_integer(comment.substr(0, end));
}

std::optional<int> lichess_eval(std::string_view comment, EvalParsing parsing) {
    // "[%eval" and its value may be parted by any PGN whitespace: exports wrap long comments.
    constexpr std::string_view marker = "[%eval";
    std::size_t start = comment.find(marker);
    while (start != std::string_view::npos && (start + marker.size() >= comment.size() ||
                                               !is_pgn_whitespace(comment[start + marker.size()])))
        start = comment.find(marker, start + 1);
    if (start == std::string_view::npos) return std::nullopt;
    std::string_view rest = skip_leading_blanks(comment.substr(start + marker.size()));
    std::string_view token = rest.substr(0, rest.find_first_of(" \t\r\n,]"));
    if (!token.empty() && token[0] == '#') {
        bool black_mates = token.size() > 1 && token[1] == '-';
        return black_mates ? -kMateScore : kMateScore;
    }
    return pawns_to_centipawns(token, parsing);
}

}  // namespace wdl::games
