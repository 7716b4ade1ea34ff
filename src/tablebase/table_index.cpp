#include "wdl/tablebase/table_index.hpp"

#include <algorithm>

namespace wdl::tablebase {
namespace {

using chess::Color;
using chess::PieceType;

// Order of the men in a table: white king, black king, then each side's men as Q R B N P.
int order_key(const Man& man) {
    static constexpr int type_rank[6] = {4, 3, 2, 1, 0, -1};  // P N B R Q K
    if (man.type == PieceType::King) return man.color == Color::White ? 0 : 1;
    return 2 + 5 * int(man.color) + type_rank[std::size_t(man.type)];
}

// The 8 symmetries of the board: bit 2 swaps files and ranks, bit 0 mirrors the files,
// bit 1 the ranks.
constexpr int transform_square(int transformation, int square) {
    int file = chess::file_of(square), rank = chess::rank_of(square);
    if (transformation & 4) std::swap(file, rank);
    if (transformation & 1) file = 7 - file;
    if (transformation & 2) rank = 7 - rank;
    return rank * 8 + file;
}

constexpr auto kTransforms = [] {
    std::array<std::array<std::uint8_t, 64>, 8> table{};
    for (int t = 0; t < 8; ++t)
        for (int square = 0; square < 64; ++square)
            table[std::size_t(t)][std::size_t(square)] = std::uint8_t(transform_square(t, square));
    return table;
}();

int transform(int transformation, int square) {
    return kTransforms[std::size_t(transformation)][std::size_t(square)];
}

}  // namespace

TableIndex::TableIndex(const Material& material)
    : material_(material), pawns_(material.has_pawns()), men_(material.men()) {
    Position all;
    for (int color = 0; color < 2; ++color)
        for (int type = 0; type < 6; ++type)
            for (int n = 0; n < material.count(Color(color), PieceType(type)); ++n)
                all.add(Color(color), PieceType(type), 0);
    std::stable_sort(all.men.begin(), all.men.begin() + all.count,
                     [](const Man& a, const Man& b) { return order_key(a) < order_key(b); });
    for (int i = 0; i < men_; ++i) {
        template_[std::size_t(i)] = all.men[std::size_t(i)];
        bool same =
            i > 0 && order_key(all.men[std::size_t(i)]) == order_key(all.men[std::size_t(i - 1)]);
        group_start_[std::size_t(i)] = same ? group_start_[std::size_t(i - 1)] : i;
    }
    int slots = 0;
    for (int square = 0; square < 64; ++square) {
        int file = chess::file_of(square), rank = chess::rank_of(square);
        bool inside = pawns_ ? file <= 3 : file <= 3 && rank <= file;
        king_slot_[std::size_t(square)] = inside ? slots : -1;
        if (inside) slot_square_[std::size_t(slots++)] = chess::Square(square);
    }
    size_ = std::uint64_t(slots);
    for (int i = 1; i < men_; ++i) size_ *= 64;
}

Position TableIndex::oriented(const Position& position) const {
    Position result = position;
    if (!(Material::of(position) == material_)) {
        for (int i = 0; i < result.count; ++i) {
            Man& man = result.men[std::size_t(i)];
            man.color = chess::opposite(man.color);
            man.square = chess::Square(man.square ^ 56);
        }
        result.side_to_move = chess::opposite(result.side_to_move);
        if (result.en_passant != chess::no_square)
            result.en_passant = chess::Square(result.en_passant ^ 56);
    }
    std::stable_sort(result.men.begin(), result.men.begin() + result.count,
                     [](const Man& a, const Man& b) { return order_key(a) < order_key(b); });
    return result;
}

std::uint64_t TableIndex::index_of(const Position& position) const {
    std::uint64_t best = ~std::uint64_t{0};
    int transformations = pawns_ ? 2 : 8;
    for (int t = 0; t < transformations; ++t) {
        int slot = king_slot_[std::size_t(transform(t, position.men[0].square))];
        if (slot < 0) continue;
        std::array<int, kMaxMen> squares{};
        for (int i = 1; i < men_; ++i) {
            int square = transform(t, position.men[std::size_t(i)].square);
            // Identical men in ascending square order (insertion into their run).
            int j = i;
            while (j > group_start_[std::size_t(i)] && squares[std::size_t(j - 1)] > square) {
                squares[std::size_t(j)] = squares[std::size_t(j - 1)];
                --j;
            }
            squares[std::size_t(j)] = square;
        }
        std::uint64_t index = std::uint64_t(slot);
        for (int i = 1; i < men_; ++i) index = index * 64 + std::uint64_t(squares[std::size_t(i)]);
        best = std::min(best, index);
    }
    return best;
}

Position TableIndex::position_at(std::uint64_t index, Color side_to_move) const {
    Position position;
    position.count = men_;
    position.side_to_move = side_to_move;
    for (int i = men_ - 1; i >= 1; --i) {
        position.men[std::size_t(i)] = template_[std::size_t(i)];
        position.men[std::size_t(i)].square = chess::Square(index % 64);
        index /= 64;
    }
    position.men[0] = template_[0];
    position.men[0].square = slot_square_[std::size_t(index)];
    return position;
}

}  // namespace wdl::tablebase
