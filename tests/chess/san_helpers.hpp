#pragma once

// Test helpers: SAN written from the legal move list, independent of Board::parse_san, and the
// boards and moves the chess tests start from.

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/chess/board.hpp"

namespace chess_test {

using wdl::chess::Board;
using wdl::chess::Move;
using wdl::chess::MoveKind;
using wdl::chess::MoveList;
using wdl::chess::PieceType;

inline std::string square_name(int square) {
    return {static_cast<char>('a' + square % 8), static_cast<char>('1' + square / 8)};
}

inline std::string write_san(const Board& board, Move move) {
    if (move.kind == MoveKind::Castling) return move.to > move.from ? "O-O" : "O-O-O";
    PieceType type = *board.piece_type_on(move.from);
    bool capture = board.color_on(move.to).has_value() || move.kind == MoveKind::EnPassant;
    std::string san;
    if (type == PieceType::Pawn) {
        if (capture) san = {static_cast<char>('a' + move.from % 8), 'x'};
        san += square_name(move.to);
        if (move.kind == MoveKind::Promotion) {
            san += '=';
            san += "PNBRQK"[static_cast<int>(move.promotion)];
        }
        return san;
    }
    san = "PNBRQK"[static_cast<int>(type)];
    MoveList moves;
    board.legal_moves(moves);
    bool ambiguous = false, same_file = false, same_rank = false;
    for (Move other : moves) {
        if (other.to != move.to || other.from == move.from || other.kind != MoveKind::Normal ||
            board.piece_type_on(other.from) != type) {
            continue;
        }
        ambiguous = true;
        same_file |= other.from % 8 == move.from % 8;
        same_rank |= other.from / 8 == move.from / 8;
    }
    if (ambiguous && (!same_file || same_rank)) san += static_cast<char>('a' + move.from % 8);
    if (ambiguous && same_file) san += static_cast<char>('1' + move.from / 8);
    if (capture) san += 'x';
    return san + square_name(move.to);
}

// The board of a FEN that must be valid.
inline Board board_from(const char* fen, bool chess960 = false) {
    Board board;
    REQUIRE(board.set_fen(fen, chess960));
    return board;
}

// The UCI text of a SAN move, or "none" when it is rejected.
inline std::string uci_of(const Board& board, std::string_view san) {
    auto move = board.parse_san(san);
    return move ? board.to_uci(*move) : "none";
}

// Parses and plays one SAN move; false if parse_san rejects it.
inline bool play_san(Board& board, std::string_view san) {
    auto move = board.parse_san(san);
    if (!move) return false;
    board.play(*move);
    return true;
}

}  // namespace chess_test
