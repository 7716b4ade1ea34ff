#include "wdl/training/plain.hpp"

#include <charconv>
#include <optional>
#include <string>

#include "record_games.hpp"
#include "wdl/chess/board.hpp"

namespace wdl::training {
namespace {

std::optional<int> whole_number(std::string_view text) {
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// One record's fields as read so far.
struct PlainRecord {
    std::string_view fen;
    std::optional<int> score, ply, result;
    std::uint64_t offset = 0;  // of its first line in the file

    // Why the record cannot be counted, or nothing.
    std::optional<std::string> fault() const {
        if (fen.empty()) return "no fen line";
        if (!score || *score < -kLargestScore || *score > kLargestScore)
            return "no valid score line";
        if (!ply || *ply < 0 || *ply > kLargestPly) return "no valid ply line";
        if (!result || *result < -1 || *result > 1) return "no result line of 1, 0 or -1";
        return std::nullopt;
    }
};

class PlainReader {
  public:
    PlainReader(std::uint64_t offset, PositionSink& sink)
        : offset_(offset), games_(sink, reading_) {}

    ChunkReading read(std::string_view text) {
        for (std::size_t at = 0; at < text.size();) {
            std::size_t end = text.find('\n', at);
            if (end == std::string_view::npos) end = text.size();
            read_line(text.substr(at, end - at), at);
            at = end + 1;
        }
        // Text after the last "e" line is a record cut short (the file's end).
        if (has_fields_) games_.drop(record_.offset, "a record without its closing \"e\" line");
        games_.finish();
        return std::move(reading_);
    }

  private:
    void read_line(std::string_view line, std::size_t at) {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) return;
        if (!has_fields_) {
            record_ = PlainRecord{};
            record_.offset = offset_ + at;
            has_fields_ = true;
        }
        auto space = line.find(' ');
        std::string_view name = line.substr(0, space);
        std::string_view value = space == std::string_view::npos ? "" : line.substr(space + 1);
        if (name == "fen")
            record_.fen = value;
        else if (name == "score")
            record_.score = whole_number(value);
        else if (name == "ply")
            record_.ply = whole_number(value);
        else if (name == "result")
            record_.result = whole_number(value);
        else if (name == "e")
            finish_record();
        // Other lines ("move", fields of later versions) are not needed for counting.
    }

    void finish_record() {
        has_fields_ = false;
        if (auto fault = record_.fault()) return games_.drop(record_.offset, *fault);
        if (!board_.set_fen(record_.fen))
            return games_.drop(record_.offset, "invalid FEN " + std::string(record_.fen));
        games_.add(record_.offset, {board_, *record_.score, *record_.ply, *record_.result});
    }

    std::uint64_t offset_;
    ChunkReading reading_;
    RecordGames games_;
    chess::Board board_;
    PlainRecord record_;
    bool has_fields_ = false;
};

class PlainLayout final : public games::RecordLayout {
  public:
    // After the last "e" line, whichever the line ends ("\n", or "\r\n" as read_line allows).
    std::size_t last_cut(std::string_view buffer, std::size_t) const override {
        std::size_t cut = std::string_view::npos;
        for (std::string_view end : {"\ne\n", "\ne\r\n"}) {
            std::size_t at = buffer.rfind(end);
            if (at != std::string_view::npos &&
                (cut == std::string_view::npos || at + end.size() > cut))
                cut = at + end.size();
        }
        if (cut != std::string_view::npos) return cut;
        if (buffer.starts_with("e\n")) return 2;
        return buffer.starts_with("e\r\n") ? 3 : std::string_view::npos;
    }
    std::size_t forced_cut(std::string_view buffer) const override {
        if (buffer.empty()) return std::string_view::npos;
        std::size_t newline = buffer.rfind('\n');
        return newline == std::string_view::npos ? buffer.size() : newline + 1;
    }
    const char* record_noun() const override { return "record"; }
};

}  // namespace

ChunkReading read_plain(std::string_view text, std::uint64_t offset, PositionSink& sink) {
    return PlainReader(offset, sink).read(text);
}

const games::RecordLayout& plain_layout() {
    static const PlainLayout layout;
    return layout;
}

}  // namespace wdl::training
