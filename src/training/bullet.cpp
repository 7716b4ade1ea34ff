#include "wdl/training/bullet.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>

#include "wdl/chess/board.hpp"

namespace wdl::training {
namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// White's result as 1, 0 or -1 from "1.0", "0.5", "0.0" (or "1", "0"); nullopt otherwise.
std::optional<int> white_result(std::string_view text) {
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    if (value == 1.0) return 1;
    if (value == 0.5) return 0;
    if (value == 0.0) return -1;
    return std::nullopt;
}

class BulletLayout final : public games::RecordLayout {
  public:
    std::size_t last_cut(std::string_view buffer, std::size_t) const override {
        std::size_t newline = buffer.rfind('\n');
        return newline == std::string_view::npos ? newline : newline + 1;
    }
    std::size_t forced_cut(std::string_view buffer) const override {
        return buffer.empty() ? std::string_view::npos : buffer.size();
    }
    const char* record_noun() const override { return "line"; }
};

}  // namespace

ChunkReading read_bullet(std::string_view text, std::uint64_t offset, PositionSink& sink) {
    ChunkReading reading;
    chess::Board board;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        std::uint64_t line_offset = offset + at;
        at = end + 1;
        if (trimmed(line).empty()) continue;
        auto fault = [&](const std::string& why) {
            reading.problems.add(reading.records++,
                                 "at byte " + std::to_string(line_offset) + ", " + why);
        };
        auto first_bar = line.find('|');
        auto second_bar =
            first_bar == std::string_view::npos ? first_bar : line.find('|', first_bar + 1);
        if (second_bar == std::string_view::npos) {
            fault("not \"<FEN> | <score> | <result>\"");
            continue;
        }
        std::string_view fen = trimmed(line.substr(0, first_bar));
        std::string_view score_text =
            trimmed(line.substr(first_bar + 1, second_bar - first_bar - 1));
        int score = 0;
        auto [score_end, score_error] =
            std::from_chars(score_text.data(), score_text.data() + score_text.size(), score);
        auto result = white_result(trimmed(line.substr(second_bar + 1)));
        if (score_error != std::errc() || score_end != score_text.data() + score_text.size() ||
            score < -kLargestScore || score > kLargestScore) {
            fault("a score that is not a whole number of 16 bits");
        } else if (!result) {
            fault("a result other than 1.0, 0.5 or 0.0");
        } else if (!board.set_fen(fen)) {
            fault("invalid FEN " + std::string(fen));
        } else if (board.fullmove_number() > kLargestPly / 2) {
            fault("a move number beyond " + std::to_string(kLargestPly / 2));
        } else {
            bool black = board.side_to_move() == chess::Color::Black;
            int ply = std::max(0, 2 * (board.fullmove_number() - 1) + black);
            // VALUE_NONE is a mark, not a score of either side: it stays one whoever moves (and
            // -32002, a converter's blind flip of it, is one too: no score lies beyond a mate).
            int mover_score = std::abs(score) == kNoScore ? kNoScore : black ? -score : score;
            ++reading.records;
            sink.begin_unit(line_offset);
            sink.see({board, mover_score, ply, black ? -*result : *result});
            sink.end_unit();
        }
    }
    return reading;
}

const games::RecordLayout& bullet_layout() {
    static const BulletLayout layout;
    return layout;
}

}  // namespace wdl::training
