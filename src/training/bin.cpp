#include "wdl/training/bin.hpp"

#include <array>
#include <optional>
#include <string>

#include "record_games.hpp"
#include "wdl/chess/board.hpp"

namespace wdl::training {
namespace {

// The packed position's bits, least significant first in each byte.
class PackedBits {
  public:
    explicit PackedBits(const unsigned char* data) : data_(data) {}

    // nullopt past the 256 bits of the position.
    std::optional<unsigned> take(int count) {
        unsigned value = 0;
        for (int i = 0; i < count; ++i, ++position_) {
            if (position_ >= 256) return std::nullopt;
            value |= unsigned((data_[position_ / 8] >> (position_ % 8)) & 1) << i;
        }
        return value;
    }

  private:
    const unsigned char* data_;
    int position_ = 0;
};

// The piece letter of the next square, '.' for an empty one, nullopt for no valid code. The
// code: 0 for an empty square, else 1 and three bits of the type (pawn to queen), then the colour.
std::optional<char> packed_piece(PackedBits& bits) {
    auto occupied = bits.take(1);
    if (!occupied) return std::nullopt;
    if (*occupied == 0) return '.';
    auto type = bits.take(3);
    auto black = bits.take(1);
    if (!type || !black || *type > 4) return std::nullopt;
    char letter = "PNBRQ"[*type];
    return *black ? char(letter - 'A' + 'a') : letter;
}

// The position of a record as FEN (castling rights and the en-passant square, which counting
// does not need, left out), or nullopt for bits that hold none.
std::optional<std::string> packed_sfen_fen(const unsigned char* bytes, int ply) {
    PackedBits bits(bytes);
    auto black_to_move = bits.take(1);
    auto white_king = bits.take(6);
    auto black_king = bits.take(6);
    if (!black_to_move || !white_king || !black_king || *white_king == *black_king)
        return std::nullopt;
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            unsigned square = unsigned(rank * 8 + file);
            std::optional<char> piece = square == *white_king   ? 'K'
                                        : square == *black_king ? 'k'
                                                                : packed_piece(bits);
            if (!piece) return std::nullopt;
            if (*piece == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += *piece;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += *black_to_move ? " b - - 0 " : " w - - 0 ";
    return fen + std::to_string(ply / 2 + 1);
}

int little_endian_16(const unsigned char* bytes) { return bytes[0] | bytes[1] << 8; }

class BinLayout final : public games::RecordLayout {
  public:
    std::size_t last_cut(std::string_view buffer, std::size_t) const override {
        std::size_t whole = buffer.size() - buffer.size() % kBinRecordBytes;
        return whole > 0 ? whole : std::string_view::npos;
    }
    std::size_t forced_cut(std::string_view buffer) const override { return last_cut(buffer, 0); }
    const char* record_noun() const override { return "record"; }
};

}  // namespace

ChunkReading read_bin(std::string_view bytes, std::uint64_t offset, PositionSink& sink) {
    ChunkReading reading;
    RecordGames games(sink, reading);
    chess::Board board;
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t at = 0; at < bytes.size(); at += kBinRecordBytes) {
        if (bytes.size() - at < kBinRecordBytes) {
            games.drop(offset + at, "a record cut short (" + std::to_string(bytes.size() - at) +
                                        " of 40 bytes)");
            break;
        }
        const unsigned char* record = data + at;
        int score = static_cast<std::int16_t>(little_endian_16(record + 32));
        int ply = little_endian_16(record + 36);
        int result = static_cast<std::int8_t>(record[38]);
        auto fen = packed_sfen_fen(record, ply);
        if (result < -1 || result > 1) {
            games.drop(offset + at, "a result other than 1, 0 or -1");
        } else if (!fen || !board.set_fen(*fen)) {
            games.drop(offset + at, "a packed position that is not a legal one");
        } else {
            games.add(offset + at, {board, score, ply, result});
        }
    }
    games.finish();
    return reading;
}

const games::RecordLayout& bin_layout() {
    static const BinLayout layout;
    return layout;
}

}  // namespace wdl::training
