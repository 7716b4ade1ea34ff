#include "wdl/tablebase/gaviota.hpp"

#include <gtb-probe.h>

#include <atomic>
#include <mutex>
#include <stdexcept>

#include "wdl/util/error.hpp"

namespace wdl::tablebase {
namespace {

std::atomic<bool> library_in_use{false};
// libgaviotatb's probes share its cache: concurrent probes were seen to return wrong depths, so
// they are serialised.
std::mutex probe_mutex;

// Up to kMaxMen men per side, each list ended by the library's terminators.
struct GaviotaMen {
    unsigned squares[kMaxMen + 1];
    unsigned char pieces[kMaxMen + 1];
};

}  // namespace

std::filesystem::path GaviotaTables::default_directory() { return GAVIOTATB_DEFAULT_DIR; }

GaviotaTables::GaviotaTables(const std::filesystem::path& directory) {
    if (library_in_use.exchange(true))
        throw wdl::Error("Gaviota tables are already open in this process");
    paths_ = tbpaths_init();
    paths_ = tbpaths_add(paths_, directory.c_str());
    tb_init(0, tb_CP4, paths_);
    tbcache_init(std::size_t{8} << 20, 10);
    if ((tb_availability() & 1) == 0) {
        tbcache_done();
        tb_done();
        paths_ = tbpaths_done(paths_);
        library_in_use = false;
        throw wdl::Error("no Gaviota tables (*.gtb.cp4) in " + directory.string());
    }
}

GaviotaTables::~GaviotaTables() {
    tbcache_done();
    tb_done();
    tbpaths_done(paths_);
    library_in_use = false;
}

std::optional<Value> GaviotaTables::probe(const Position& position) const {
    GaviotaMen men[2];
    int counts[2] = {0, 0};
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        int side = int(man.color);
        men[side].squares[counts[side]] = man.square;
        men[side].pieces[counts[side]++] = static_cast<unsigned char>(int(man.type) + tb_PAWN);
    }
    for (int side = 0; side < 2; ++side) {
        men[side].squares[counts[side]] = tb_NOSQUARE;
        men[side].pieces[counts[side]] = tb_NOPIECE;
    }
    unsigned info = 0, plies = 0;
    unsigned stm = position.side_to_move == chess::Color::White ? unsigned(tb_WHITE_TO_MOVE)
                                                                : unsigned(tb_BLACK_TO_MOVE);
    unsigned en_passant = position.en_passant == chess::no_square ? unsigned(tb_NOSQUARE)
                                                                  : unsigned(position.en_passant);
    std::lock_guard lock(probe_mutex);
    if (!tb_probe_hard(stm, en_passant, tb_NOCASTLE, men[0].squares, men[1].squares, men[0].pieces,
                       men[1].pieces, &info, &plies))
        return std::nullopt;
    if (info == tb_DRAW) return Value{};
    if (info != tb_WMATE && info != tb_BMATE) return std::nullopt;
    bool white_wins = info == tb_WMATE;
    bool mover_wins = white_wins == (position.side_to_move == chess::Color::White);
    return Value{mover_wins ? Outcome::Win : Outcome::Loss, int(plies)};
}

}  // namespace wdl::tablebase
