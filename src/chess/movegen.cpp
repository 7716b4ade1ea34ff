// Legal move generation: pseudo-legal moves filtered by a king-safety test that is skipped for
// the common case (not in check, piece not pinned, not a king or en-passant move).

#include "attacks.hpp"
#include "board_inline.hpp"
#include "wdl/chess/board.hpp"

namespace wdl::chess {

using namespace detail;

namespace {

Bitboard shift_forward(Bitboard bits, Color color) {
    return color == Color::White ? bits << 8 : bits >> 8;
}

void add_pawn_moves(MoveList& out, int from, int to, bool promotes) {
    Square origin = static_cast<Square>(from), target = static_cast<Square>(to);
    if (!promotes) {
        out.push_back({origin, target, MoveKind::Normal});
        return;
    }
    for (PieceType type :
         {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
        out.push_back({origin, target, MoveKind::Promotion, type});
    }
}

}  // namespace

Board::Bitboard Board::pinned_pieces(Color color) const {
    int king = king_square(color);
    Color them = opposite(color);
    Bitboard queens = pieces(them, PieceType::Queen);
    Bitboard snipers = (rook_attacks(king, 0) & (pieces(them, PieceType::Rook) | queens)) |
                       (bishop_attacks(king, 0) & (pieces(them, PieceType::Bishop) | queens));
    Bitboard occupancy = occupied();
    Bitboard pinned = 0;
    while (snipers) {
        int sniper = pop_lowest_square(snipers);
        Bitboard blockers =
            squares_between(king, sniper, direction_between(king, sniper)) & occupancy;
        bool single_blocker = blockers && !(blockers & (blockers - 1));
        if (single_blocker && (blockers & pieces(color))) pinned |= blockers;
    }
    return pinned;
}

// Works for any Chess960 placement: the squares both pieces cross must be empty (apart from
// the two of them) and no square the king crosses may be attacked. Attacks are computed with
// king and rook lifted; a slider that the rook alone was shielding would attack the king's
// target anyway, so lifting the rook never changes the verdict.
bool Board::castling_is_legal(CastlingSide side) const {
    Color us = side_to_move_;
    Square rook = castling_rook_[static_cast<int>(us)][side];
    if (rook == no_square) return false;
    int king = king_square(us);
    int rank_start = rank_of(king) * 8;
    int king_target = rank_start + (side == KingSide ? 6 : 2);
    int rook_target = rank_start + (side == KingSide ? 5 : 3);
    Bitboard occupancy = occupied() ^ square_bit(king) ^ square_bit(rook);
    Bitboard king_path = rank_span(king, king_target);
    if ((king_path | rank_span(rook, rook_target)) & occupancy) return false;
    while (king_path) {
        if (attacked_by(pop_lowest_square(king_path), opposite(us), occupancy)) return false;
    }
    return true;
}

void Board::generate_pseudo_legal(MoveList& out) const {
    Color us = side_to_move_, them = opposite(us);
    Bitboard occupancy = occupied(), ours = pieces(us), enemies = pieces(them);
    bool white = us == Color::White;
    int forward = white ? 8 : -8;
    Bitboard promotion_rank = rank_mask(white ? 7 : 0);

    Bitboard pawns = pieces(us, PieceType::Pawn);
    Bitboard single_pushes = shift_forward(pawns, us) & ~occupancy;
    Bitboard double_pushes =
        shift_forward(single_pushes, us) & ~occupancy & rank_mask(white ? 3 : 4);
    for (Bitboard targets = single_pushes; targets;) {
        int to = pop_lowest_square(targets);
        add_pawn_moves(out, to - forward, to, square_bit(to) & promotion_rank);
    }
    for (Bitboard targets = double_pushes; targets;) {
        int to = pop_lowest_square(targets);
        add_pawn_moves(out, to - 2 * forward, to, false);
    }
    for (Bitboard from_set = pawns; from_set;) {
        int from = pop_lowest_square(from_set);
        for (Bitboard targets = pawn_attacks(us, from) & enemies; targets;) {
            int to = pop_lowest_square(targets);
            add_pawn_moves(out, from, to, square_bit(to) & promotion_rank);
        }
    }
    if (en_passant_square_ != no_square) {
        for (Bitboard from_set = pawn_attacks(them, en_passant_square_) & pawns; from_set;) {
            out.push_back({static_cast<Square>(pop_lowest_square(from_set)), en_passant_square_,
                           MoveKind::EnPassant});
        }
    }

    for (PieceType type : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen,
                           PieceType::King}) {
        for (Bitboard from_set = pieces(us, type); from_set;) {
            int from = pop_lowest_square(from_set);
            for (Bitboard targets = piece_attacks(type, from, occupancy) & ~ours; targets;) {
                out.push_back(
                    {static_cast<Square>(from), static_cast<Square>(pop_lowest_square(targets))});
            }
        }
    }

    for (CastlingSide side : {KingSide, QueenSide}) {
        if (castling_is_legal(side)) {
            out.push_back(
                {king_square(us), castling_rook_[static_cast<int>(us)][side], MoveKind::Castling});
        }
    }
}

void Board::legal_moves(MoveList& out) const {
    out.clear();
    generate_pseudo_legal(out);
    Bitboard must_test = pinned_pieces(side_to_move_) | square_bit(king_square(side_to_move_));
    bool check = in_check_;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        Move move = out[i];
        bool safe_without_test =
            move.kind == MoveKind::Castling ||
            (!check && move.kind != MoveKind::EnPassant && !(must_test & square_bit(move.from)));
        if (safe_without_test || leaves_king_safe(move)) out[kept++] = move;
    }
    out.truncate(kept);
}

std::uint64_t Board::perft(int depth) const {
    if (depth <= 0) return 1;
    MoveList moves;
    legal_moves(moves);
    if (depth == 1) return moves.size();
    std::uint64_t nodes = 0;
    for (Move move : moves) {
        Board next = *this;
        next.play(move);
        nodes += next.perft(depth - 1);
    }
    return nodes;
}

std::uint64_t Board::attacks_from(Square square) const {
    std::uint8_t code = squares_[square];
    if (code == no_piece) return 0;
    PieceType type = type_of(code);
    if (type == PieceType::Pawn) return pawn_attacks(static_cast<Color>(color_of(code)), square);
    return piece_attacks(type, square, occupied());
}

bool Board::is_legal(Move move) const {
    if (move.kind != MoveKind::Castling) return leaves_king_safe(move);
    const auto& rooks = castling_rook_[static_cast<int>(side_to_move_)];
    if (move.to == rooks[KingSide]) return castling_is_legal(KingSide);
    return move.to == rooks[QueenSide] && castling_is_legal(QueenSide);
}

bool Board::has_legal_en_passant() const {
    if (en_passant_square_ == no_square) return false;
    for (Bitboard from_set = pawn_attacks(opposite(side_to_move_), en_passant_square_) &
                             pieces(side_to_move_, PieceType::Pawn);
         from_set;) {
        Move capture{static_cast<Square>(pop_lowest_square(from_set)), en_passant_square_,
                     MoveKind::EnPassant};
        if (leaves_king_safe(capture)) return true;
    }
    return false;
}

}  // namespace wdl::chess
