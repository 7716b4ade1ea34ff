#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/chess/types.hpp"
#include "wdl/tablebase/position.hpp"

namespace wdl::tablebase {

// The men of an endgame, e.g. KQKR: White's men, then Black's, each side as K, Q, R, B, N, P.
class Material {
  public:
    Material() = default;
    // "KQKR", "KPK", "KBNK" (case-insensitive); std::nullopt unless it is two sides starting
    // with one K each and kMaxMen men or fewer in all.
    static std::optional<Material> parse(std::string_view name);
    static Material of(const Position& position);

    int count(chess::Color color, chess::PieceType type) const {
        return counts_[std::size_t(color)][std::size_t(type)];
    }
    // Adds (delta > 0) or removes men of one kind.
    void add(chess::Color color, chess::PieceType type, int delta = 1) {
        counts_[std::size_t(color)][std::size_t(type)] += delta;
    }
    int men() const;
    bool has_pawns() const;
    std::string name() const;
    // The same material with the colours exchanged (KRKQ for KQKR).
    Material flipped() const;
    // Tables store the stronger side as White (more material, or the same and the greater
    // piece list): true if this material is stored as it is, false if flipped.
    bool is_canonical() const;
    Material canonical() const { return is_canonical() ? *this : flipped(); }

    friend bool operator==(const Material&, const Material&) = default;
    friend auto operator<=>(const Material&, const Material&) = default;

  private:
    std::array<std::array<int, 6>, 2> counts_{};  // [color][piece type]
};

// Every endgame of 2 < men <= max_men with one king per side, in canonical orientation,
// ordered so that each table comes after the tables its captures and promotions lead to.
std::vector<Material> all_endgames(int max_men);

// The canonical endgames a position of this material can move into by a capture (en passant
// too), a promotion or a capture that promotes (those with more than two men).
std::vector<Material> successor_endgames(const Material& material);

// The letter of a piece type in a material name: K Q R B N P.
char piece_letter(chess::PieceType type);

}  // namespace wdl::tablebase
