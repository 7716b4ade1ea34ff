#pragma once

// Move generation on tablebase positions (at most kMaxMen men, no castling), forwards and
// backwards, over the chess module's attack tables. Private to the tablebase module.

#include "chess/attacks.hpp"
#include "wdl/tablebase/position.hpp"

namespace wdl::tablebase::rules {

using chess::Color;
using chess::PieceType;
using chess::detail::Bitboard;
using chess::detail::square_bit;

inline Bitboard occupancy(const Position& position) {
    Bitboard occupied = 0;
    for (int i = 0; i < position.count; ++i)
        occupied |= square_bit(position.men[std::size_t(i)].square);
    return occupied;
}

inline Bitboard occupancy(const Position& position, Color color) {
    Bitboard occupied = 0;
    for (int i = 0; i < position.count; ++i)
        if (position.men[std::size_t(i)].color == color)
            occupied |= square_bit(position.men[std::size_t(i)].square);
    return occupied;
}

inline Bitboard attacks_of(const Man& man, Bitboard occupied) {
    if (man.type == PieceType::Pawn) return chess::detail::pawn_attacks(man.color, man.square);
    return chess::detail::piece_attacks(man.type, man.square, occupied);
}

// The squares each piece type attacks from each square on an empty board (pawns of either
// colour together): a piece that does not reach a square there cannot attack it.
struct EmptyBoardAttacks {
    std::array<std::array<Bitboard, 64>, 6> by_type{};
};

inline const EmptyBoardAttacks& empty_board_attacks() {
    static const EmptyBoardAttacks table = [] {
        EmptyBoardAttacks attacks;
        for (int square = 0; square < 64; ++square) {
            attacks.by_type[0][std::size_t(square)] =
                chess::detail::pawn_attacks(Color::White, square) |
                chess::detail::pawn_attacks(Color::Black, square);
            for (int type = 1; type < 6; ++type)
                attacks.by_type[std::size_t(type)][std::size_t(square)] =
                    chess::detail::piece_attacks(PieceType(type), square, 0);
        }
        return attacks;
    }();
    return table;
}

inline bool attacked(const Position& position, int square, Color by, Bitboard occupied) {
    const auto& reach = empty_board_attacks().by_type;
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        if (man.color != by || !(reach[std::size_t(man.type)][man.square] & square_bit(square)))
            continue;
        if (attacks_of(man, occupied) & square_bit(square)) return true;
    }
    return false;
}

inline int king_square(const Position& position, Color color) {
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        if (man.color == color && man.type == PieceType::King) return man.square;
    }
    return 0;
}

inline bool in_check(const Position& position, Color color) {
    return attacked(position, king_square(position, color), chess::opposite(color),
                    occupancy(position));
}

// A position whose side not to move is in check, or with a pawn on its first or last rank,
// or two men on one square, cannot arise.
inline bool is_legal(const Position& position) {
    Bitboard occupied = 0;
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        if (occupied & square_bit(man.square)) return false;
        occupied |= square_bit(man.square);
        int rank = chess::rank_of(man.square);
        if (man.type == PieceType::Pawn && (rank == 0 || rank == 7)) return false;
    }
    return !in_check(position, chess::opposite(position.side_to_move));
}

enum class MoveKind : std::uint8_t { Quiet, DoublePush, Capture, Promotion, CapturePromotion };

inline bool is_conversion(MoveKind kind) {
    return kind == MoveKind::Capture || kind == MoveKind::Promotion ||
           kind == MoveKind::CapturePromotion;
}

inline void remove_man(Position& position, int index) {
    for (int i = index; i + 1 < position.count; ++i)
        position.men[std::size_t(i)] = position.men[std::size_t(i + 1)];
    --position.count;
}

// Calls visit(successor, kind, from, to) for every legal move. A quiet move keeps the order
// of the men; a capture removes the captured man; a double push sets the en-passant square
// (whether or not a capture there is possible).
template <typename Visit>
void for_each_move(const Position& position, Visit&& visit) {
    const Color us = position.side_to_move, them = chess::opposite(us);
    const Bitboard occupied = occupancy(position), ours = occupancy(position, us);
    auto emit = [&](Position successor, int man_index, int to, MoveKind kind, int captured) {
        successor.men[std::size_t(man_index)].square = chess::Square(to);
        successor.side_to_move = them;
        successor.en_passant = chess::no_square;
        if (captured >= 0) remove_man(successor, captured);
        if (in_check(successor, us)) return;
        visit(successor, kind);
    };
    auto captured_at = [&](int square) {
        for (int i = 0; i < position.count; ++i)
            if (position.men[std::size_t(i)].square == square) return i;
        return -1;
    };
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        if (man.color != us) continue;
        if (man.type != PieceType::Pawn) {
            Bitboard targets = attacks_of(man, occupied) & ~ours;
            while (targets) {
                int to = chess::detail::pop_lowest_square(targets);
                int captured = captured_at(to);
                emit(position, i, to, captured >= 0 ? MoveKind::Capture : MoveKind::Quiet,
                     captured);
            }
            continue;
        }
        const int forward = us == Color::White ? 8 : -8;
        const int last_rank = us == Color::White ? 7 : 0;
        auto pawn_move = [&](int to, int captured) {
            bool capture = captured >= 0;
            if (chess::rank_of(to) != last_rank) {
                emit(position, i, to, capture ? MoveKind::Capture : MoveKind::Quiet, captured);
                return;
            }
            for (PieceType promoted :
                 {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
                Position promoting = position;
                promoting.men[std::size_t(i)].type = promoted;
                emit(promoting, i, to, capture ? MoveKind::CapturePromotion : MoveKind::Promotion,
                     captured);
            }
        };
        int one = man.square + forward;
        if (!(occupied & square_bit(one))) {
            pawn_move(one, -1);
            int start_rank = us == Color::White ? 1 : 6;
            int two = one + forward;
            if (chess::rank_of(man.square) == start_rank && !(occupied & square_bit(two))) {
                Position pushed = position;
                pushed.men[std::size_t(i)].square = chess::Square(two);
                pushed.side_to_move = them;
                if (!in_check(pushed, us)) {
                    pushed.en_passant = chess::Square(one);
                    visit(pushed, MoveKind::DoublePush);
                }
            }
        }
        Bitboard captures = chess::detail::pawn_attacks(us, man.square);
        Bitboard theirs = occupied & ~ours;
        Bitboard targets = captures & theirs;
        while (targets) {
            int to = chess::detail::pop_lowest_square(targets);
            pawn_move(to, captured_at(to));
        }
        if (position.en_passant != chess::no_square && (captures & square_bit(position.en_passant)))
            emit(position, i, position.en_passant, MoveKind::Capture,
                 captured_at(position.en_passant - forward));
    }
}

// True if the side to move can capture en passant (legally) in this position.
inline bool can_capture_en_passant(const Position& position) {
    if (position.en_passant == chess::no_square) return false;
    bool found = false;
    Position probe = position;
    for (int i = 0; i < probe.count; ++i) {
        const Man& man = probe.men[std::size_t(i)];
        if (man.color != probe.side_to_move || man.type != PieceType::Pawn) continue;
        if (!(chess::detail::pawn_attacks(man.color, man.square) & square_bit(probe.en_passant)))
            continue;
        int forward = man.color == Color::White ? 8 : -8;
        Position after = probe;
        after.men[std::size_t(i)].square = probe.en_passant;
        for (int j = 0; j < after.count; ++j)
            if (after.men[std::size_t(j)].square == probe.en_passant - forward) {
                remove_man(after, j);
                break;
            }
        if (!in_check(after, man.color)) found = true;
    }
    return found;
}

// Calls visit(predecessor, en_passant) for every position from which a quiet move (no
// capture, no promotion) of the side that just moved leads here. Predecessors may be illegal
// (the caller's index marks them); the men keep their order. en_passant is the square a
// double push passed over (no_square for other moves).
template <typename Visit>
void for_each_unmove(const Position& position, Visit&& visit) {
    const Color mover = chess::opposite(position.side_to_move);
    const Bitboard occupied = occupancy(position);
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        if (man.color != mover) continue;
        Position predecessor = position;
        predecessor.side_to_move = mover;
        predecessor.en_passant = chess::no_square;
        if (man.type != PieceType::Pawn) {
            Bitboard origins =
                chess::detail::piece_attacks(man.type, man.square, occupied) & ~occupied;
            while (origins) {
                predecessor.men[std::size_t(i)].square =
                    chess::Square(chess::detail::pop_lowest_square(origins));
                visit(predecessor, chess::no_square);
            }
            continue;
        }
        const int back = mover == Color::White ? -8 : 8;
        const int rank = chess::rank_of(man.square);
        const int first_rank = mover == Color::White ? 0 : 7;
        int one = man.square + back;
        if (chess::rank_of(one) == first_rank || (occupied & square_bit(one))) continue;
        if (rank == (mover == Color::White ? 7 : 0)) continue;  // promotions are not unmoved
        predecessor.men[std::size_t(i)].square = chess::Square(one);
        visit(predecessor, chess::no_square);
        int double_rank = mover == Color::White ? 3 : 4;
        int two = one + back;
        if (rank == double_rank && !(occupied & square_bit(two))) {
            predecessor.men[std::size_t(i)].square = chess::Square(two);
            visit(predecessor, chess::Square(one));
        }
    }
}

}  // namespace wdl::tablebase::rules
