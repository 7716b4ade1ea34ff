#include <catch2/catch.hpp>

#include "table_helpers.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/table_index.hpp"

using namespace wdl::tablebase;
using namespace wdl::tablebase::testing;
using wdl::chess::Color;
using wdl::chess::PieceType;

namespace {

// Every placement of the men of a 3-man material with either side to move; positions that
// cannot arise are skipped by the caller.
template <typename Visit>
void for_each_placement(const Material& m, Visit&& visit) {
    Position base;
    for (int color = 0; color < 2; ++color)
        for (int type = 0; type < 6; ++type)
            for (int n = 0; n < m.count(Color(color), PieceType(type)); ++n)
                base.add(Color(color), PieceType(type), 0);
    for (int a = 0; a < 64; ++a)
        for (int b = 0; b < 64; ++b)
            for (int c = 0; c < 64; ++c)
                for (Color side : {Color::White, Color::Black}) {
                    Position position = base;
                    position.men[0].square = std::uint8_t(a);
                    position.men[1].square = std::uint8_t(b);
                    position.men[2].square = std::uint8_t(c);
                    position.side_to_move = side;
                    visit(position);
                }
}

}  // namespace

TEST_CASE("own 3-man DTM tables equal Gaviota's in every legal position", "[tablebase][gaviota]") {
    GaviotaTables gaviota;
    MemoryTables tables(Metric::DTM);
    for (const char* name : {"KQK", "KRK", "KBK", "KNK", "KPK", "KKQ", "KKP"}) {
        const Table& table = tables.get(material(name));
        std::uint64_t compared = 0, differing = 0, missing = 0;
        for_each_placement(material(name), [&](const Position& position) {
            auto own = table.probe(position);
            if (!own) return;  // not a legal position
            auto reference = gaviota.probe(position);
            ++compared;
            if (!reference) {
                ++missing;
            } else if (!(*own == *reference)) {
                ++differing;
            }
        });
        CAPTURE(name, compared);
        CHECK(compared > 100000);
        CHECK(missing == 0);
        CHECK(differing == 0);
    }
}
