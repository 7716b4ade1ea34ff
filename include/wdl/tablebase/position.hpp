#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/chess/board.hpp"
#include "wdl/chess/types.hpp"

namespace wdl::tablebase {

// The most men (kings included) that the project's own tables cover.
inline constexpr int kMaxMen = 4;

struct Man {
    chess::Color color = chess::Color::White;
    chess::PieceType type = chess::PieceType::King;
    chess::Square square = 0;

    friend bool operator==(const Man&, const Man&) = default;
};

// A position of at most kMaxMen men without castling rights: what an endgame table describes.
// en_passant is the square a pawn has just passed over by a double push (or no_square);
// whether a capture there is possible is for the move generator to say.
struct Position {
    std::array<Man, kMaxMen> men{};
    int count = 0;
    chess::Color side_to_move = chess::Color::White;
    chess::Square en_passant = chess::no_square;

    void add(chess::Color color, chess::PieceType type, chess::Square square) {
        men[std::size_t(count++)] = Man{color, type, square};
    }
};

// The position of a FEN if it has at most kMaxMen men, no castling rights and one king per
// side; std::nullopt otherwise (also for malformed FEN). The FEN must describe a legal
// position (callers pass what chess::Board accepted).
std::optional<Position> position_from_fen(std::string_view fen);
// The position on a board, under the same conditions as position_from_fen.
std::optional<Position> position_from_board(const chess::Board& board);
// The FEN of a position, with "-" for castling and move counters "0 1".
std::string to_fen(const Position& position);

}  // namespace wdl::tablebase
