#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// Legal binpack blocks of any size up to Stockfish's limit, made of the one chain the format
// packs tightest: two bare kings shuffling a1-b1 and h8-g8, every score 0 (a king's move takes
// 2 or 3 bits, the unchanged score 5), about one position per byte. Each chain is a game from
// its start to move 200, so that every position is counted. For the readers' tests and
// scripts/bench_memory.sh (through king_walk_binpack.cpp).
namespace wdl::training::test {

// Positions of one chain: the stem and its 398 plies (ply 398 is move 200, the last counted).
inline constexpr int kKingWalkPositions = 399;

// One chain's bytes: the stem (the position packed, its move a1-b1, score 0, ply 0, a draw,
// rule50 0), the count of plies after it, then each ply's move and score, bits most
// significant first.
inline std::string king_walk_chain() {
    std::string chain(34, '\0');
    chain[7] = 0x01;                // occupancy (big-endian): a1 ...
    chain[0] = char(0x80);          // ... and h8
    chain[8] = char(10 | 11 << 4);  // white king (code 10), then black king (code 11)
    chain[25] = 4;                  // a1 (0) to b1 (1): (from << 8) | (to << 2)
    chain[32] = char((kKingWalkPositions - 1) >> 8);  // plies after the stem (big-endian)
    chain[33] = char((kKingWalkPositions - 1) & 0xFF);
    // Each ply: the king's destination among those it attacks (in square order), then the
    // score's change as one 5-bit group of 0. Kh8-g8 (3 targets, index 2), Kb1-a1 (5, index
    // 0), Kg8-h8 (5, index 4), Ka1-b1 (3, index 0).
    struct Code {
        unsigned value;
        int bits;
    };
    const Code cycle[] = {{2, 2}, {0, 3}, {4, 3}, {0, 2}};
    std::uint64_t bit = 0;
    std::string movetext;
    auto put = [&](unsigned value, int bits) {
        for (int i = bits - 1; i >= 0; --i, ++bit) {
            if (bit % 8 == 0) movetext += '\0';
            if (value >> i & 1u) movetext.back() = char(movetext.back() | 0x80 >> (bit % 8));
        }
    };
    for (int ply = 0; ply < kKingWalkPositions - 1; ++ply) {
        put(cycle[ply % 4].value, cycle[ply % 4].bits);
        put(0, 5);
    }
    return chain + movetext;
}

// A block of as many chains as fit in `payload_bytes` (at least one), header included.
inline std::string king_walk_block(std::size_t payload_bytes) {
    std::string chain = king_walk_chain();
    std::size_t chains = payload_bytes / chain.size() > 0 ? payload_bytes / chain.size() : 1;
    auto size = std::uint32_t(chains * chain.size());
    std::string block = "BINP";
    for (int i = 0; i < 4; ++i) block += char(size >> (8 * i) & 0xFF);
    block.reserve(block.size() + size);
    for (std::size_t i = 0; i < chains; ++i) block += chain;
    return block;
}

}  // namespace wdl::training::test
