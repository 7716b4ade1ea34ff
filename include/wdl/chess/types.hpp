#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace wdl::chess {

enum class Color : std::uint8_t { White, Black };
enum class PieceType : std::uint8_t { Pawn, Knight, Bishop, Rook, Queen, King };

constexpr Color opposite(Color color) {
    return color == Color::White ? Color::Black : Color::White;
}

// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63.
using Square = std::uint8_t;
inline constexpr Square no_square = 64;

constexpr Square make_square(int file, int rank) { return static_cast<Square>(rank * 8 + file); }
constexpr int file_of(int square) { return square & 7; }
constexpr int rank_of(int square) { return square >> 3; }

enum class MoveKind : std::uint8_t { Normal, Promotion, EnPassant, Castling };

// A move in 4 bytes. Castling is encoded as "king captures own rook" (from = king square,
// to = castling rook square) so Chess960 castling is unambiguous even when the king does
// not move; Board::to_uci translates it to the usual notation.
struct alignas(4) Move {
    Square from = 0;
    Square to = 0;
    MoveKind kind = MoveKind::Normal;
    PieceType promotion = PieceType::Queen;  // meaningful only when kind == Promotion

    friend bool operator==(const Move&, const Move&) = default;
};

// Fixed-capacity move list: no heap allocation. 256 exceeds the 218 legal moves that any
// position accepted by Board::set_fen (at most 16 pieces per side) can have.
class MoveList {
  public:
    static constexpr std::size_t capacity = 256;

    void clear() { size_ = 0; }
    void push_back(Move move) { moves_[size_++] = move; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // Drops the moves from index size on (size must not exceed size()).
    void truncate(std::size_t size) { size_ = size; }
    const Move& operator[](std::size_t index) const { return moves_[index]; }
    Move& operator[](std::size_t index) { return moves_[index]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }

  private:
    std::array<Move, capacity> moves_;
    std::size_t size_ = 0;
};

}  // namespace wdl::chess
