#include "wdl/pgn/reader.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace wdl::pgn {
namespace {

// Character classes, so that the loops over movetext test each character with one lookup.
enum CharClass : std::uint8_t {
    kBlank = 1,
    kTokenEnd = 2,  // ends a move token: a blank or a character that starts something else
};

constexpr std::array<std::uint8_t, 256> make_char_classes() {
    std::array<std::uint8_t, 256> classes{};
    for (unsigned char c : std::string_view(" \t\r\n\f")) classes[c] |= kBlank | kTokenEnd;
    for (unsigned char c : std::string_view("{}();[$")) classes[c] |= kTokenEnd;
    return classes;
}

constexpr auto kCharClasses = make_char_classes();

// What a character starts in movetext, for one table lookup per item instead of a chain of
// comparisons.
enum Start : std::uint8_t {
    kMoveStart,  // anything that reads as a token and is not listed below
    kLetterStart,
    kBlankStart,
    kDigitStart,
    kCommentStart,
    kLineCommentStart,
    kPercentStart,
    kVariationStart,
    kTagStart,
    kNagStart,
    kStrayClose,
};

constexpr std::array<Start, 256> make_starts() {
    std::array<Start, 256> starts{};
    for (unsigned char c : std::string_view(" \t\r\n\f")) starts[c] = kBlankStart;
    for (unsigned char c = '0'; c <= '9'; ++c) starts[c] = kDigitStart;
    for (unsigned char c = 'a'; c <= 'z'; ++c) starts[c] = kLetterStart;
    for (unsigned char c = 'A'; c <= 'Z'; ++c) starts[c] = kLetterStart;
    starts['{'] = kCommentStart;
    starts[';'] = kLineCommentStart;
    starts['%'] = kPercentStart;
    starts['('] = kVariationStart;
    starts['['] = kTagStart;
    starts['$'] = kNagStart;
    starts[')'] = kStrayClose;
    starts['}'] = kStrayClose;
    return starts;
}

constexpr auto kStarts = make_starts();

bool has_class(char c, CharClass char_class) {
    return kCharClasses[static_cast<unsigned char>(c)] & char_class;
}

bool is_blank(char c) { return has_class(c, kBlank); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The first of the characters `Stops` at or after `from` in `text`, or text.size(). Sixteen
// (SSE2) or eight bytes are tested at a time: comments and tag values are long enough for this
// to beat a loop over bytes, and short enough that memchr's call costs more than it saves.
template <char... Stops>
std::size_t find_first_of(std::string_view text, std::size_t from) {
    const char* p = text.data() + from;
    const char* const end = text.data() + text.size();
#if defined(__SSE2__)
    for (; end - p >= 16; p += 16) {
        __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        __m128i hits = _mm_setzero_si128();
        ((hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, _mm_set1_epi8(Stops)))), ...);
        if (int mask = _mm_movemask_epi8(hits))
            return std::size_t(p - text.data()) + std::size_t(std::countr_zero(unsigned(mask)));
    }
#endif
    if constexpr (std::endian::native == std::endian::little) {
        constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
        // The high bit of each byte equal to the stop; a false one can only follow a true one
        // in the same word, so the lowest bit set is always right.
        auto bytes_equal = [](std::uint64_t word, char stop) {
            std::uint64_t x = word ^ (ones * static_cast<unsigned char>(stop));
            return (x - ones) & ~x & highs;
        };
        for (; end - p >= 8; p += 8) {
            std::uint64_t word;
            std::memcpy(&word, p, sizeof word);
            if (std::uint64_t hits = (bytes_equal(word, Stops) | ...))
                return std::size_t(p - text.data()) + std::size_t(std::countr_zero(hits) / 8);
        }
    }
    for (; p != end; ++p)
        if (((*p == Stops) || ...)) break;
    return std::size_t(p - text.data());
}

bool is_tag_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// True if a tag line `[Name "` starts at `pos`: the test that tells a new tag section from a
// '[' inside a comment such as lichess's `[%eval 0.3]`.
bool tag_line_at(std::string_view text, std::size_t pos) {
    if (pos >= text.size() || text[pos] != '[') return false;
    std::size_t i = pos + 1;
    std::size_t name_start = i;
    while (i < text.size() && is_tag_name_char(text[i])) ++i;
    if (i == name_start) return false;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    return i < text.size() && text[i] == '"';
}

// The start of the line after the escape lines (starting '%') from `line_start` on: escape
// lines are transparent to tag sections.
std::size_t skip_escape_lines(std::string_view text, std::size_t line_start) {
    while (line_start < text.size() && text[line_start] == '%') {
        std::size_t newline = text.find('\n', line_start);
        line_start = newline == std::string_view::npos ? text.size() : newline + 1;
    }
    return line_start;
}

// Whether the line at `line_start` continues a tag section: '[' after optional indentation.
// A blank line (or any other line) ends the section. The reader and the chunk cutter share
// this, so a cut never falls inside a section the reader reads as one.
bool continues_tag_section(std::string_view text, std::size_t line_start) {
    std::size_t i = line_start;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    return i < text.size() && text[i] == '[';
}

bool is_result_token(std::string_view token) {
    return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

bool is_annotation_token(std::string_view token) {
    for (char c : token)
        if (c != '!' && c != '?') return false;
    return true;
}

// Strips a move-number prefix ("12.", "12...", "1.") and returns what remains.
std::string_view without_move_number(std::string_view token) {
    std::size_t digits = 0;
    while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9') ++digits;
    if (digits == 0 || digits == token.size() || token[digits] != '.') return token;
    std::size_t end = digits;
    while (end < token.size() && token[end] == '.') ++end;
    return token.substr(end);
}

class GameReader {
  public:
    GameReader(std::string_view text, Visitor& visitor) : text_(text), visitor_(visitor) {}

    void read_all() {
        skip_byte_order_mark();
        while (skip_blank_and_escape_lines()) {
            visitor_.begin_game(pos_);
            read_tag_section();
            read_movetext(visitor_.begin_movetext());
        }
    }

  private:
    char peek() const { return text_[pos_]; }
    bool at_end() const { return pos_ >= text_.size(); }
    bool at_line_start() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }

    void skip_byte_order_mark() {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    }

    void skip_to_next_line() {
        const void* newline = std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
        pos_ = newline ? static_cast<const char*>(newline) - text_.data() + 1 : text_.size();
    }

    // Returns false at the end of the text.
    bool skip_blank_and_escape_lines() {
        while (!at_end()) {
            if (is_blank(peek())) {
                ++pos_;
            } else if (peek() == '%' && at_line_start()) {
                skip_to_next_line();
            } else {
                return true;
            }
        }
        return false;
    }

    // Reads the tag lines from pos_ on (a game's first non-blank character): the section ends
    // at the first line that does not continue it (continues_tag_section), so a blank line ends
    // it and a section without movetext is a game of its own.
    void read_tag_section() {
        if (peek() != '[') return;
        read_tag_line();
        while (!at_end()) {
            pos_ = skip_escape_lines(text_, pos_);
            if (!continues_tag_section(text_, pos_)) return;
            while (peek() != '[') ++pos_;  // the indentation
            read_tag_line();
        }
    }

    void read_tag_line() {
        ++pos_;  // '['
        while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
        std::size_t name_start = pos_;
        while (!at_end() && is_tag_name_char(peek())) ++pos_;
        std::string_view name = text_.substr(name_start, pos_ - name_start);
        while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
        std::string_view value;
        if (!at_end() && peek() == '"') value = read_quoted_value();
        skip_to_next_line();
        if (!name.empty()) visitor_.tag(name, value);
    }

    // Reads "..." with \" and \\ escapes; a value missing its closing quote ends at the line end.
    std::string_view read_quoted_value() {
        ++pos_;
        std::size_t start = pos_;
        bool escaped = false;
        while ((pos_ = find_first_of<'"', '\n', '\\'>(text_, pos_)) < text_.size() &&
               peek() == '\\') {
            bool escapes_next = pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n';
            escaped |= escapes_next;
            pos_ += escapes_next ? 2 : 1;
        }
        std::string_view raw = text_.substr(start, pos_ - start);
        if (!escaped) return raw;
        unescaped_.clear();
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
            unescaped_ += raw[i];
        }
        return unescaped_;
    }

    void read_movetext(bool wants_moves) {
        pending_san_ = {};
        pending_comment_ = {};
        has_pending_ = false;
        wants_moves_ = wants_moves;
        while (!at_end()) {
            switch (kStarts[static_cast<unsigned char>(peek())]) {
                case kBlankStart:
                    ++pos_;
                    break;
                case kLetterStart:  // the usual move
                    read_san_token();
                    break;
                case kMoveStart:
                    if (read_move_token()) return finish_game(true);
                    break;
                case kDigitStart:
                    if (skip_move_number()) break;
                    if (read_move_token()) return finish_game(true);
                    break;
                case kCommentStart:
                    if (!read_brace_comment()) return finish_game(false);
                    break;
                case kLineCommentStart: {
                    std::size_t start = pos_ + 1;
                    skip_to_next_line();
                    std::size_t end = pos_;
                    while (end > start && is_blank(text_[end - 1])) --end;
                    attach_comment(text_.substr(start, end - start));
                    break;
                }
                case kPercentStart:
                    if (at_line_start()) {
                        skip_to_next_line();
                    } else if (read_move_token()) {
                        return finish_game(true);
                    }
                    break;
                case kVariationStart:
                    if (!skip_variation()) return finish_game(false);
                    break;
                case kTagStart:
                    return finish_game(false);
                case kNagStart:
                    ++pos_;
                    while (!at_end() && is_digit(peek())) ++pos_;
                    break;
                case kStrayClose:
                    ++pos_;
                    break;
            }
        }
        finish_game(false);
    }

    // Skips a token that is only a move number ("12.", "12..."), the most common token after
    // moves; returns false, moving nothing, for any other token.
    bool skip_move_number() {
        std::size_t end = pos_;
        while (end < text_.size() && is_digit(text_[end])) ++end;
        if (end == pos_ || end == text_.size() || text_[end] != '.') return false;
        while (end < text_.size() && text_[end] == '.') ++end;
        if (end < text_.size() && !has_class(text_[end], kTokenEnd)) return false;
        pos_ = end;
        return true;
    }

    // A token that starts with a letter is neither a result, an annotation nor a move number.
    void read_san_token() {
        std::size_t start = pos_++;
        while (!at_end() && !has_class(peek(), kTokenEnd)) ++pos_;
        if (wants_moves_) pend_move(text_.substr(start, pos_ - start));
    }

    // Reads a token; returns true if it is a result (the game's end), else takes it as a move
    // (annotation tokens and move numbers aside).
    bool read_move_token() {
        std::size_t start = pos_;
        while (!at_end() && !has_class(peek(), kTokenEnd)) ++pos_;
        std::string_view token = text_.substr(start, pos_ - start);
        if (is_result_token(token)) return true;
        if (wants_moves_) handle_move_token(token);
        return false;
    }

    void handle_move_token(std::string_view token) {
        std::string_view san = without_move_number(token);
        if (san.empty() || is_annotation_token(san)) return;
        // A "12." followed by its move without a blank, e.g. "12.e4", leaves the move.
        if (san.front() >= '1' && san.front() <= '9' && san.find('.') != std::string_view::npos)
            return;
        pend_move(san);
    }

    // The move is delivered once its comment, if any, has been read.
    void pend_move(std::string_view san) {
        deliver_pending_move();
        pending_san_ = san;
        pending_comment_ = {};
        has_pending_ = true;
    }

    void attach_comment(std::string_view comment) {
        std::size_t first = 0;
        while (first < comment.size() && is_blank(comment[first])) ++first;
        if (has_pending_ && pending_comment_.empty()) pending_comment_ = comment.substr(first);
    }

    // Finds the '}' closing the comment that opens at pos_. An unterminated comment (no '}'
    // before the next tag line) returns npos and moves pos_ to that tag line or the end.
    // Comments are short, so one plain loop beats separate memchr calls for '}' and '\n'.
    std::size_t find_comment_close() {
        for (std::size_t i = find_first_of<'}', '\n'>(text_, pos_ + 1); i < text_.size();
             i = find_first_of<'}', '\n'>(text_, i + 1)) {
            if (text_[i] == '}') return i;
            if (tag_line_at(text_, i + 1)) {
                pos_ = i + 1;
                return std::string_view::npos;
            }
        }
        pos_ = text_.size();
        return std::string_view::npos;
    }

    bool read_brace_comment() {
        std::size_t start = pos_ + 1;
        std::size_t close = find_comment_close();
        if (close == std::string_view::npos) return false;
        attach_comment(text_.substr(start, close - start));
        pos_ = close + 1;
        return true;
    }

    // Skips a (possibly nested) variation with its comments. Returns false if it is
    // unbalanced: it then ends at the next tag line or the end of the text.
    bool skip_variation() {
        int depth = 0;
        while (!at_end()) {
            char c = peek();
            if (c == '(') {
                ++depth;
                ++pos_;
            } else if (c == ')') {
                ++pos_;
                if (--depth == 0) return true;
            } else if (c == '{') {
                std::size_t close = find_comment_close();
                if (close == std::string_view::npos) return false;
                pos_ = close + 1;
            } else if (c == ';') {
                skip_to_next_line();
            } else if (c == '\n') {
                ++pos_;
                if (tag_line_at(text_, pos_)) return false;
            } else {
                ++pos_;
            }
        }
        return false;
    }

    void deliver_pending_move() {
        if (!has_pending_) return;
        has_pending_ = false;
        if (wants_moves_) wants_moves_ = visitor_.move(pending_san_, pending_comment_);
    }

    void finish_game(bool terminated) {
        deliver_pending_move();
        visitor_.end_game(terminated);
    }

    std::string_view text_;
    Visitor& visitor_;
    std::size_t pos_ = 0;
    std::string unescaped_;
    std::string_view pending_san_;
    std::string_view pending_comment_;
    bool has_pending_ = false;
    bool wants_moves_ = true;
};

// True if the line before `line_start`, escape lines passed over, continues a tag section: then
// a tag line at `line_start` belongs to that section, not to a new game.
bool follows_tag_line(std::string_view text, std::size_t line_start) {
    std::size_t end = line_start;
    while (end > 0) {
        std::size_t begin = end >= 2 ? text.rfind('\n', end - 2) : std::string_view::npos;
        begin = begin == std::string_view::npos ? 0 : begin + 1;
        if (text[begin] != '%') return continues_tag_section(text, begin);
        end = begin;
    }
    return false;
}

}  // namespace

void read_games(std::string_view text, Visitor& visitor) { GameReader(text, visitor).read_all(); }

std::size_t find_last_game_start(std::string_view text, std::size_t min_offset) {
    std::size_t pos = text.size();
    while (pos > min_offset) {
        std::size_t newline = text.rfind('\n', pos - 1);
        if (newline == std::string_view::npos || newline + 1 <= min_offset) break;
        std::size_t line_start = newline + 1;
        if (tag_line_at(text, line_start) && !follows_tag_line(text, line_start)) return line_start;
        pos = newline;
    }
    return std::string_view::npos;
}

std::size_t find_next_game_start(std::string_view text, std::size_t from) {
    std::size_t pos = from;
    while (pos < text.size()) {
        const bool line_start = pos == 0 || text[pos - 1] == '\n';
        if (line_start && tag_line_at(text, pos) && !follows_tag_line(text, pos)) return pos;
        const void* newline = std::memchr(text.data() + pos, '\n', text.size() - pos);
        if (!newline) break;
        pos = std::size_t(static_cast<const char*>(newline) - text.data()) + 1;
    }
    return std::string_view::npos;
}

}  // namespace wdl::pgn
