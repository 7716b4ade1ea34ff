#pragma once

// Board members on the hot path of SAN resolution and move playing, defined inline here for
// the chess sources that call them (no cross-file calls per move). Private to the chess module.

#include "attacks.hpp"
#include "wdl/chess/board.hpp"

namespace wdl::chess {

inline Square Board::king_square(Color color) const {
    return static_cast<Square>(detail::lowest_square(pieces(color, PieceType::King)));
}

// Sliders are found by their lines on an empty board first, and each is then checked for
// blockers: far cheaper than computing every attack set, as few sliders share a line with the
// square.
inline bool Board::attacked_by(int square, Color attacker, Bitboard occupancy,
                               Bitboard ignored) const {
    Bitboard enemies = pieces(attacker) & ~ignored;
    auto type = [this](PieceType piece_type) { return by_type_[static_cast<int>(piece_type)]; };
    if ((detail::knight_attacks(square) & type(PieceType::Knight) & enemies) ||
        (detail::pawn_attacks(opposite(attacker), square) & type(PieceType::Pawn) & enemies) ||
        (detail::king_attacks(square) & type(PieceType::King) & enemies)) {
        return true;
    }
    Bitboard queens = type(PieceType::Queen);
    Bitboard snipers = ((detail::straight_lines(square) & (type(PieceType::Rook) | queens)) |
                        (detail::diagonal_lines(square) & (type(PieceType::Bishop) | queens))) &
                       enemies;
    while (snipers) {
        int sniper = detail::pop_lowest_square(snipers);
        int direction = detail::direction_between(square, sniper);
        if (!(detail::squares_between(square, sniper, direction) & occupancy)) return true;
    }
    return false;
}

inline bool Board::slider_attacks_along(int square, int direction, Bitboard occupancy,
                                        Color attacker) const {
    Bitboard blockers = detail::ray(direction, square) & occupancy;
    if (!blockers) return false;
    PieceType slider = detail::is_straight(direction) ? PieceType::Rook : PieceType::Bishop;
    Bitboard sliders = pieces(attacker, slider) | pieces(attacker, PieceType::Queen);
    return sliders & detail::square_bit(detail::nearest_on_ray(direction, blockers));
}

// Plays the move on the occupancy only and asks whether any enemy piece, other than the one
// captured, then attacks our king. Exact for every non-castling pseudo-legal move, including
// en-passant captures that uncover the king along the rank.
inline bool Board::leaves_king_safe(Move move) const {
    Color us = side_to_move_, them = opposite(us);
    Bitboard from_bit = detail::square_bit(move.from), to_bit = detail::square_bit(move.to);
    Bitboard captured =
        move.kind == MoveKind::EnPassant ? detail::square_bit(move.to ^ 8) : to_bit & pieces(them);
    Bitboard occupancy = (occupied() ^ from_bit ^ captured) | to_bit;
    bool king_moves = type_of(squares_[move.from]) == PieceType::King;
    int king = king_moves ? move.to : king_square(us);
    return !attacked_by(king, them, occupancy, captured);
}

}  // namespace wdl::chess
