#pragma once

// Precomputed attack sets (built at compile time) and sliding-piece attacks by the classical
// ray method: cut each ray at its first blocker. Private to the chess module.

#include <array>
#include <bit>
#include <cstdint>

#include "wdl/chess/types.hpp"

namespace wdl::chess::detail {

using Bitboard = std::uint64_t;

constexpr Bitboard square_bit(int square) { return Bitboard{1} << square; }
constexpr Bitboard file_a = 0x0101010101010101ULL;
constexpr Bitboard rank_1 = 0xFFULL;
constexpr Bitboard file_mask(int file) { return file_a << file; }
constexpr Bitboard rank_mask(int rank) { return rank_1 << (8 * rank); }

inline int lowest_square(Bitboard bits) { return std::countr_zero(bits); }
inline int highest_square(Bitboard bits) { return 63 - std::countl_zero(bits); }
inline int pop_lowest_square(Bitboard& bits) {
    int square = lowest_square(bits);
    bits &= bits - 1;
    return square;
}

// Ray directions as (file step, rank step). The first four increase the square index, so the
// nearest blocker on them is the lowest set bit; on the last four it is the highest.
constexpr int ray_steps[8][2] = {{0, 1},  {1, 0},  {1, 1},   {-1, 1},
                                 {0, -1}, {-1, 0}, {-1, -1}, {1, -1}};

struct AttackTables {
    std::array<std::array<Bitboard, 64>, 8> rays{};
    std::array<Bitboard, 64> knight{};
    std::array<Bitboard, 64> king{};
    std::array<std::array<Bitboard, 64>, 2> pawn{};  // [attacking color][square]
    // direction[a][b]: the ray from a that passes through b, or -1 when a and b are not aligned.
    std::array<std::array<std::int8_t, 64>, 64> direction{};
    // Squares a rook (straight) or bishop (diagonal) on the square would reach on an empty board.
    std::array<Bitboard, 64> straight_lines{};
    std::array<Bitboard, 64> diagonal_lines{};
};

constexpr Bitboard offset_targets(int square, const int (&steps)[8][2]) {
    Bitboard targets = 0;
    for (const auto& step : steps) {
        int file = file_of(square) + step[0];
        int rank = rank_of(square) + step[1];
        if (file >= 0 && file < 8 && rank >= 0 && rank < 8) targets |= square_bit(rank * 8 + file);
    }
    return targets;
}

constexpr AttackTables make_attack_tables() {
    constexpr int knight_steps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                        {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    AttackTables tables;
    for (int square = 0; square < 64; ++square) {
        tables.knight[square] = offset_targets(square, knight_steps);
        tables.king[square] = offset_targets(square, ray_steps);
        for (int direction = 0; direction < 8; ++direction) {
            int file = file_of(square) + ray_steps[direction][0];
            int rank = rank_of(square) + ray_steps[direction][1];
            for (; file >= 0 && file < 8 && rank >= 0 && rank < 8;
                 file += ray_steps[direction][0], rank += ray_steps[direction][1]) {
                tables.rays[direction][square] |= square_bit(rank * 8 + file);
            }
        }
        for (int target = 0; target < 64; ++target) tables.direction[square][target] = -1;
        for (int direction = 0; direction < 8; ++direction) {
            auto& lines = (direction & 2) == 0 ? tables.straight_lines : tables.diagonal_lines;
            lines[square] |= tables.rays[direction][square];
            for (int target = 0; target < 64; ++target) {
                if (tables.rays[direction][square] & square_bit(target))
                    tables.direction[square][target] = static_cast<std::int8_t>(direction);
            }
        }
        Bitboard from = square_bit(square);
        Bitboard not_file_a = ~file_a, not_file_h = ~file_mask(7);
        tables.pawn[0][square] = ((from & not_file_a) << 7) | ((from & not_file_h) << 9);
        tables.pawn[1][square] = ((from & not_file_a) >> 9) | ((from & not_file_h) >> 7);
    }
    return tables;
}

inline constexpr AttackTables attack_tables = make_attack_tables();

inline Bitboard knight_attacks(int square) { return attack_tables.knight[square]; }
inline Bitboard king_attacks(int square) { return attack_tables.king[square]; }
inline Bitboard pawn_attacks(Color color, int square) {
    return attack_tables.pawn[static_cast<int>(color)][square];
}

template <int Direction>
inline Bitboard ray_attacks(int square, Bitboard occupancy) {
    Bitboard ray = attack_tables.rays[Direction][square];
    Bitboard blockers = ray & occupancy;
    if (blockers) {
        int first = Direction < 4 ? lowest_square(blockers) : highest_square(blockers);
        ray ^= attack_tables.rays[Direction][first];
    }
    return ray;
}

inline Bitboard straight_lines(int square) { return attack_tables.straight_lines[square]; }
inline Bitboard diagonal_lines(int square) { return attack_tables.diagonal_lines[square]; }

// The ray from a through b (-1 if none), and what lies on it.
inline int direction_between(int a, int b) { return attack_tables.direction[a][b]; }
inline Bitboard ray(int direction, int square) { return attack_tables.rays[direction][square]; }
// The squares strictly between a and b, where b lies on ray `direction` from a.
inline Bitboard squares_between(int a, int b, int direction) {
    return (attack_tables.rays[direction][a] ^ attack_tables.rays[direction][b]) & ~square_bit(b);
}
// The nearest square of `blockers` (not empty, all on ray `direction`) to the ray's origin.
inline int nearest_on_ray(int direction, Bitboard blockers) {
    return direction < 4 ? lowest_square(blockers) : highest_square(blockers);
}
// Rays along a file or rank (rook and queen moves) are 0, 1, 4 and 5; the others are diagonal.
inline bool is_straight(int direction) { return (direction & 2) == 0; }

inline Bitboard rook_attacks(int square, Bitboard occupancy) {
    return ray_attacks<0>(square, occupancy) | ray_attacks<1>(square, occupancy) |
           ray_attacks<4>(square, occupancy) | ray_attacks<5>(square, occupancy);
}

inline Bitboard bishop_attacks(int square, Bitboard occupancy) {
    return ray_attacks<2>(square, occupancy) | ray_attacks<3>(square, occupancy) |
           ray_attacks<6>(square, occupancy) | ray_attacks<7>(square, occupancy);
}

// Attacks of a non-pawn piece.
inline Bitboard piece_attacks(PieceType type, int square, Bitboard occupancy) {
    switch (type) {
        case PieceType::Knight:
            return knight_attacks(square);
        case PieceType::Bishop:
            return bishop_attacks(square, occupancy);
        case PieceType::Rook:
            return rook_attacks(square, occupancy);
        case PieceType::Queen:
            return bishop_attacks(square, occupancy) | rook_attacks(square, occupancy);
        case PieceType::King:
            return king_attacks(square);
        case PieceType::Pawn:
            break;
    }
    return 0;
}

// Squares from a to b inclusive; both on the same rank (castling paths).
inline Bitboard rank_span(int a, int b) {
    int low = a < b ? a : b, high = a < b ? b : a;
    return (square_bit(high) << 1) - square_bit(low);
}

}  // namespace wdl::chess::detail
