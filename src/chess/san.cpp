// SAN resolution without generating all legal moves: only pieces of the named type that can
// reach the target square are tried, each checked for king safety.

#include <array>
#include <cstdint>

#include "attacks.hpp"
#include "board_inline.hpp"
#include "wdl/chess/board.hpp"

namespace wdl::chess {

using namespace detail;

namespace {

bool is_annotation(char c) { return c == '+' || c == '#' || c == '!' || c == '?'; }
bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

constexpr std::uint8_t not_a_piece_type = 0xFF;

// Piece letters that start a SAN move (upper case only: 'b' is a file).
constexpr std::array<std::uint8_t, 256> san_piece_types = [] {
    std::array<std::uint8_t, 256> types{};
    types.fill(not_a_piece_type);
    types['N'] = static_cast<std::uint8_t>(PieceType::Knight);
    types['B'] = static_cast<std::uint8_t>(PieceType::Bishop);
    types['R'] = static_cast<std::uint8_t>(PieceType::Rook);
    types['Q'] = static_cast<std::uint8_t>(PieceType::Queen);
    types['K'] = static_cast<std::uint8_t>(PieceType::King);
    return types;
}();

// Promotion letters; lower case is tolerated: at the end of a pawn move it cannot be mistaken
// for a file.
constexpr std::array<std::uint8_t, 256> promotion_types = [] {
    std::array<std::uint8_t, 256> types{};
    types.fill(not_a_piece_type);
    for (char letter : {'N', 'B', 'R', 'Q'}) {
        types[static_cast<unsigned char>(letter)] =
            san_piece_types[static_cast<unsigned char>(letter)];
        types[static_cast<unsigned char>(letter - 'A' + 'a')] =
            san_piece_types[static_cast<unsigned char>(letter)];
    }
    return types;
}();

std::uint8_t letter_type(const std::array<std::uint8_t, 256>& table, char letter) {
    return table[static_cast<unsigned char>(letter)];
}

// The parts of a non-castling SAN move.
struct SanParts {
    PieceType type = PieceType::Pawn;
    int to = 0;
    int from_file = -1;  // disambiguation, -1 when absent
    int from_rank = -1;
    bool capture_marked = false;
    bool promotes = false;
    PieceType promotion = PieceType::Queen;  // when promotes
};

bool split_san(std::string_view san, SanParts& parts) {
    if (san.size() < 2 || san.size() > 7) return false;
    if (std::uint8_t piece = letter_type(san_piece_types, san.front()); piece != not_a_piece_type) {
        parts.type = static_cast<PieceType>(piece);
        san.remove_prefix(1);
    }
    if (parts.type == PieceType::Pawn && san.size() >= 3) {
        if (std::uint8_t promotion = letter_type(promotion_types, san.back());
            promotion != not_a_piece_type) {
            parts.promotes = true;
            parts.promotion = static_cast<PieceType>(promotion);
            san.remove_suffix(1);
            if (san.back() == '=') san.remove_suffix(1);
        }
    }
    if (san.size() < 2) return false;
    char to_file = san[san.size() - 2], to_rank = san[san.size() - 1];
    if (!is_file(to_file) || !is_rank(to_rank)) return false;
    parts.to = (to_rank - '1') * 8 + (to_file - 'a');
    san.remove_suffix(2);
    if (!san.empty() && (san.back() == 'x' || san.back() == ':')) {
        parts.capture_marked = true;
        san.remove_suffix(1);
    }
    if (!san.empty() && is_file(san.front())) {
        parts.from_file = san.front() - 'a';
        san.remove_prefix(1);
    }
    if (!san.empty() && is_rank(san.front())) {
        parts.from_rank = san.front() - '1';
        san.remove_prefix(1);
    }
    return san.empty();
}

// Pawns that can make the described move; 0 when the text cannot be a pawn move here. kind
// receives the move kind.
Bitboard pawn_origins(const SanParts& parts, Color us, Bitboard occupancy, Bitboard our_pawns,
                      Bitboard enemies, Square en_passant, MoveKind& kind) {
    bool white = us == Color::White;
    int to = parts.to;
    bool last_rank = rank_of(to) == (white ? 7 : 0);
    if (last_rank != parts.promotes) return 0;
    kind = parts.promotes ? MoveKind::Promotion : MoveKind::Normal;
    bool capture = parts.from_file >= 0 && parts.from_file != file_of(to);
    if (capture) {
        if (to == en_passant) {
            kind = MoveKind::EnPassant;
        } else if (!(enemies & square_bit(to))) {
            return 0;
        }
        return pawn_attacks(opposite(us), to) & our_pawns;
    }
    if (parts.capture_marked || (occupancy & square_bit(to))) return 0;
    int behind = white ? to - 8 : to + 8;
    if (behind < 0 || behind > 63) return 0;
    if (our_pawns & square_bit(behind)) return square_bit(behind);
    bool double_push_rank = rank_of(to) == (white ? 3 : 4);
    if (!double_push_rank || (occupancy & square_bit(behind))) return 0;
    return our_pawns & square_bit(white ? behind - 8 : behind + 8);
}

// The pieces among `candidates` (all of one non-pawn type) that reach `to`. Sliders are taken
// from their lines on an empty board and kept when nothing stands between: cheaper than
// computing the attacks from the target square, since few candidates share its lines.
Bitboard pieces_reaching(PieceType type, int to, Bitboard candidates, Bitboard occupancy) {
    switch (type) {
        case PieceType::Knight:
            return knight_attacks(to) & candidates;
        case PieceType::King:
            return king_attacks(to) & candidates;
        case PieceType::Bishop:
            candidates &= diagonal_lines(to);
            break;
        case PieceType::Rook:
            candidates &= straight_lines(to);
            break;
        case PieceType::Queen:
            candidates &= straight_lines(to) | diagonal_lines(to);
            break;
        case PieceType::Pawn:
            return 0;
    }
    Bitboard reaching = 0;
    while (candidates) {
        int from = pop_lowest_square(candidates);
        if (!(squares_between(to, from, direction_between(to, from)) & occupancy))
            reaching |= square_bit(from);
    }
    return reaching;
}

}  // namespace

Move Board::resolve_san(std::string_view san) const {
    while (!san.empty() && is_annotation(san.back())) san.remove_suffix(1);
    if (san == "O-O" || san == "0-0") return resolve_castling(KingSide);
    if (san == "O-O-O" || san == "0-0-0") return resolve_castling(QueenSide);
    return resolve_piece_move(san);
}

Move Board::resolve_castling(CastlingSide side) const {
    if (!castling_is_legal(side)) return {};
    return {king_square(side_to_move_), castling_rook_[static_cast<int>(side_to_move_)][side],
            MoveKind::Castling};
}

// For a pseudo-legal non-castling move of the side to move. Out of check, a piece other than
// the king can only expose its king along the line from the king through its origin, and only
// if it leaves that line: one ray to look at instead of all attackers.
bool Board::is_legal_candidate(Move move) const {
    if (in_check_ || move.kind == MoveKind::EnPassant ||
        type_of(squares_[move.from]) == PieceType::King) {
        return leaves_king_safe(move);
    }
    int king = king_square(side_to_move_);
    int line = direction_between(king, move.from);
    if (line < 0 || direction_between(king, move.to) == line) return true;
    return !slider_attacks_along(king, line, occupied() ^ square_bit(move.from),
                                 opposite(side_to_move_));
}

Move Board::resolve_piece_move(std::string_view san) const {
    SanParts parts;
    if (!split_san(san, parts)) return {};
    Color us = side_to_move_;
    Bitboard occupancy = occupied();
    MoveKind kind = MoveKind::Normal;
    Bitboard allowed = ~Bitboard{0};  // by the disambiguation
    if (parts.from_file >= 0) allowed &= file_mask(parts.from_file);
    if (parts.from_rank >= 0) allowed &= rank_mask(parts.from_rank);
    Bitboard origins;
    if (parts.type == PieceType::Pawn) {
        origins = pawn_origins(parts, us, occupancy, pieces(us, PieceType::Pawn),
                               pieces(opposite(us)), en_passant_square_, kind) &
                  allowed;
    } else {
        if (pieces(us) & square_bit(parts.to)) return {};
        origins =
            pieces_reaching(parts.type, parts.to, pieces(us, parts.type) & allowed, occupancy);
    }

    // Only the origin is kept across the loop: a Move assembled byte by byte on the stack and
    // read back whole stalls the processor's store forwarding.
    int found_from = -1;
    int legal = 0;
    while (origins) {
        int from = pop_lowest_square(origins);
        if (is_legal_candidate({static_cast<Square>(from), static_cast<Square>(parts.to), kind,
                                parts.promotion})) {
            found_from = from;
            ++legal;
        }
    }
    if (legal != 1) return {};  // none, or ambiguous
    return Move{static_cast<Square>(found_from), static_cast<Square>(parts.to), kind,
                parts.promotion};
}

}  // namespace wdl::chess
