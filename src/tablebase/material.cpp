#include "wdl/tablebase/material.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace wdl::tablebase {
namespace {

using chess::Color;
using chess::PieceType;

// Name order of the pieces of one side after its king.
constexpr std::array<PieceType, 5> kNameOrder = {
    PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn};

std::optional<PieceType> type_of_letter(char letter) {
    switch (std::toupper(static_cast<unsigned char>(letter))) {
        case 'K':
            return PieceType::King;
        case 'Q':
            return PieceType::Queen;
        case 'R':
            return PieceType::Rook;
        case 'B':
            return PieceType::Bishop;
        case 'N':
            return PieceType::Knight;
        case 'P':
            return PieceType::Pawn;
    }
    return std::nullopt;
}

// Conventional piece values, only to decide which side a table stores as White.
int side_value(const std::array<int, 6>& counts) {
    return counts[0] * 1 + counts[1] * 3 + counts[2] * 3 + counts[3] * 5 + counts[4] * 9;
}

}  // namespace

char piece_letter(PieceType type) { return "PNBRQK"[std::size_t(type)]; }

std::optional<Material> Material::parse(std::string_view name) {
    Material material;
    int side = -1;
    for (char letter : name) {
        auto type = type_of_letter(letter);
        if (!type) return std::nullopt;
        if (*type == PieceType::King) {
            if (++side > 1) return std::nullopt;
        } else if (side < 0) {
            return std::nullopt;
        }
        ++material.counts_[std::size_t(side)][std::size_t(*type)];
    }
    if (side != 1 || material.men() > kMaxMen) return std::nullopt;
    return material;
}

Material Material::of(const Position& position) {
    Material material;
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        ++material.counts_[std::size_t(man.color)][std::size_t(man.type)];
    }
    return material;
}

int Material::men() const {
    int men = 0;
    for (const auto& side : counts_)
        for (int count : side) men += count;
    return men;
}

bool Material::has_pawns() const { return counts_[0][0] + counts_[1][0] > 0; }

std::string Material::name() const {
    std::string name;
    for (const auto& side : counts_) {
        name.append(std::size_t(side[std::size_t(PieceType::King)]), 'K');
        for (PieceType type : kNameOrder)
            name.append(std::size_t(side[std::size_t(type)]), piece_letter(type));
    }
    return name;
}

Material Material::flipped() const {
    Material material;
    material.counts_ = {counts_[1], counts_[0]};
    return material;
}

bool Material::is_canonical() const {
    int white = side_value(counts_[0]), black = side_value(counts_[1]);
    if (white != black) return white > black;
    // Same value: compare the names' piece lists, greater first; equal sides are canonical.
    std::string name_of_white = name().substr(0, name().find('K', 1));
    std::string name_of_black = flipped().name().substr(0, flipped().name().find('K', 1));
    return name_of_white >= name_of_black;
}

std::vector<Material> successor_endgames(const Material& material) {
    std::set<Material> successors;
    for (int color = 0; color < 2; ++color) {
        for (int type = 0; type < 5; ++type) {
            if (material.count(Color(color), PieceType(type)) == 0) continue;
            Material captured = material;
            captured.add(Color(color), PieceType(type), -1);
            if (captured.men() > 2) successors.insert(captured.canonical());
            if (type != int(PieceType::Pawn)) continue;
            auto promote = [&](Material before) {
                for (int promoted = 1; promoted < 5; ++promoted) {
                    Material promotion = before;
                    promotion.add(Color(color), PieceType(promoted));
                    successors.insert(promotion.canonical());
                }
            };
            promote(captured);
            // Or it promotes by taking a piece of the other side (never a pawn: none stands on
            // a last rank), as KBKP's pawn takes the bishop into KQK, KRK, KBK or KNK.
            const Color them = chess::opposite(Color(color));
            for (int taken = 1; taken < 5; ++taken) {
                if (material.count(them, PieceType(taken)) == 0) continue;
                Material taking = captured;
                taking.add(them, PieceType(taken), -1);
                promote(taking);
            }
        }
    }
    return {successors.begin(), successors.end()};
}

std::vector<Material> all_endgames(int max_men) {
    std::set<Material> endgames;
    // Extra men beyond the kings, as (color, type) choices with repetition.
    std::vector<std::pair<int, int>> choices;
    for (int color = 0; color < 2; ++color)
        for (int type = 0; type < 5; ++type) choices.emplace_back(color, type);
    auto add = [&](auto&& self, Material material, std::size_t first) -> void {
        if (material.men() > 2) endgames.insert(material.canonical());
        if (material.men() == max_men) return;
        for (std::size_t i = first; i < choices.size(); ++i) {
            Material more = material;
            more.add(Color(choices[i].first), PieceType(choices[i].second));
            self(self, more, i);
        }
    };
    Material kings;
    kings.add(Color::White, PieceType::King);
    kings.add(Color::Black, PieceType::King);
    add(add, kings, 0);
    std::vector<Material> ordered(endgames.begin(), endgames.end());
    auto pawns = [](const Material& m) {
        return m.count(Color::White, PieceType::Pawn) + m.count(Color::Black, PieceType::Pawn);
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](const Material& a, const Material& b) {
        return std::pair(a.men(), pawns(a)) < std::pair(b.men(), pawns(b));
    });
    return ordered;
}

}  // namespace wdl::tablebase
