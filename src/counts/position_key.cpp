#include "wdl/counts/position_key.hpp"

#include <charconv>
#include <cstdlib>

namespace wdl::counts {

char outcome_letter(Outcome outcome) {
    switch (outcome) {
        case Outcome::Win:
            return 'W';
        case Outcome::Draw:
            return 'D';
        case Outcome::Loss:
            return 'L';
    }
    return '?';
}

std::optional<Outcome> outcome_from_letter(char letter) {
    switch (letter) {
        case 'W':
            return Outcome::Win;
        case 'D':
            return Outcome::Draw;
        case 'L':
            return Outcome::Loss;
        default:
            return std::nullopt;
    }
}

char* write_key(char* out, const PositionKey& key) {
    *out++ = '(';
    *out++ = '\'';
    *out++ = outcome_letter(key.result);
    *out++ = '\'';
    for (int value : {key.move, key.material, key.eval}) {
        *out++ = ',';
        *out++ = ' ';
        out = std::to_chars(out, out + 11, value).ptr;
    }
    *out++ = ')';
    return out;
}

std::string format_key(const PositionKey& key) {
    char buffer[kLongestKeySpelling];
    return std::string(buffer, write_key(buffer, key));
}

namespace {

// The decimal digits of a number below 10^digits as a base-11 number of `digits` places, each
// digit d as d + 1 and the places after the last digit as 0: in the spelling, the character
// after a number (',' or ')') sorts before every digit, so a shorter number sorts before the
// longer ones it begins ("12, " < "123, "), exactly as 0 before 1..10 here.
std::uint64_t digit_order(unsigned value, int digits) {
    int length = 1;
    for (unsigned bound = 10; length < digits && value >= bound; bound *= 10) ++length;
    std::uint64_t order = 0, place = 1;
    for (int i = 0; i < length; ++i, value /= 10, place *= 11) order += (value % 10 + 1) * place;
    for (int i = length; i < digits; ++i) order *= 11;
    return order;
}

}  // namespace

std::uint64_t spelling_order(const PositionKey& key) {
    unsigned magnitude = unsigned(key.eval < 0 ? -key.eval : key.eval);
    return SpellingOrder::compose(key.result, digit_order(unsigned(key.move), 5),
                                  digit_order(unsigned(key.material), 3), key.eval >= 0,
                                  digit_order(magnitude, 5));
}

SpellingOrder::SpellingOrder() {
    for (unsigned value = 0; value < kTabled; ++value)
        five_places_[value] = std::uint32_t(digit_order(value, 5));
    for (unsigned value = 0; value < three_places_.size(); ++value)
        three_places_[value] = std::uint32_t(digit_order(value, 3));
}

namespace {

class KeyReader {
  public:
    explicit KeyReader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

    void skip_space() {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\t')) ++p_;
    }
    bool literal(char c) {
        skip_space();
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    std::optional<char> quoted_letter() {
        skip_space();
        if (end_ - p_ < 3 || (p_[0] != '\'' && p_[0] != '"') || p_[2] != p_[0]) return {};
        char letter = p_[1];
        p_ += 3;
        return letter;
    }
    // An int literal as Python's ast.literal_eval takes it: at most one sign, and no leading
    // zeros except in zero itself (05 is a syntax error in Python 3, 00 is 0).
    std::optional<int> integer() {
        skip_space();
        bool negative = p_ != end_ && *p_ == '-';
        if (p_ != end_ && (*p_ == '+' || *p_ == '-')) {
            ++p_;
            skip_space();
        }
        const char* digits = p_;
        while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        std::string_view number(digits, std::size_t(p_ - digits));
        if (number.empty()) return {};
        if (number[0] == '0' && number.find_first_not_of('0') != std::string_view::npos) return {};
        int value = 0;
        if (std::from_chars(number.data(), number.data() + number.size(), value).ec !=
            std::errc()) {
            return {};
        }
        return negative ? -value : value;
    }
    bool at_end() {
        skip_space();
        return p_ == end_;
    }

  private:
    const char* p_;
    const char* end_;
};

}  // namespace

std::optional<PositionKey> parse_key(std::string_view text) {
    KeyReader reader(text);
    if (!reader.literal('(')) return {};
    auto letter = reader.quoted_letter();
    if (!letter) return {};
    auto outcome = outcome_from_letter(*letter);
    if (!outcome) return {};
    PositionKey key;
    key.result = *outcome;
    for (int* field : {&key.move, &key.material, &key.eval}) {
        if (!reader.literal(',')) return {};
        auto value = reader.integer();
        if (!value) return {};
        *field = *value;
    }
    if (!reader.literal(')') || !reader.at_end()) return {};
    return key;
}

int bin_eval(int centipawns, int bin_width) {
    if (centipawns == kMateEval || centipawns == -kMateEval) return centipawns;
    int quotient = centipawns / bin_width;
    int remainder = centipawns % bin_width;
    if (2 * std::abs(remainder) >= bin_width) quotient += centipawns < 0 ? -1 : 1;
    return quotient * bin_width;
}

}  // namespace wdl::counts
