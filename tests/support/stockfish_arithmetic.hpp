#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

// Stockfish's own arithmetic of its displayed eval and printed W/D/L at each release, written
// from the release tags' src/uci.cpp (UCI::value or UCIEngine::to_cp, win_rate_model, UCI::wdl)
// independently of wdlfit's model code: the reference the display tests check wdlfit against.
namespace wdl::testing {

struct StockfishRelease {
    std::string name;  // the registry's name: "sf15.1"
    std::array<double, 4> as, bs;
    enum class Argument { Ply, Move, Material } argument;
    // UCI::value's divisor (PawnValueEg or NormalizeToPawnValue); 0: std::round(100 v / a).
    int divisor;
    bool pawn_value_eg_units;  // win_rate_model takes x = 100 * v / PawnValueEg
    double limit;              // its clamp of x; 0: none
};

// Facts of the tags sf_12, sf_14, sf_15 (PawnValueEg = 208 in src/types.h), sf_15.1, sf_16
// (NormalizeToPawnValue 361, 328 in src/uci.h), sf_16.1 (356 in src/uci.cpp), sf_17.
inline const std::vector<StockfishRelease>& stockfish_releases() {
    using A = StockfishRelease::Argument;
    static const std::vector<StockfishRelease> releases = {
        {"sf13",
         {-8.24404295, 64.23892342, -95.73056462, 153.86478679},
         {-3.37154371, 28.44489198, -56.67657741, 72.05858751},
         A::Ply,
         208,
         true,
         1000},
        {"sf14.1",
         {-3.68389304, 30.07065921, -60.52878723, 149.53378557},
         {-2.0181857, 15.85685038, -29.83452023, 47.59078827},
         A::Ply,
         208,
         true,
         2000},
        {"sf15",
         {-1.17202460e-01, 5.94729104e-01, 1.12065546e+01, 1.22606222e+02},
         {-1.79066759, 11.30759193, -17.43677612, 36.47147479},
         A::Ply,
         208,
         true,
         2000},
        {"sf15.1",
         {-0.58270499, 2.68512549, 15.24638015, 344.49745382},
         {-2.65734562, 15.96509799, -20.69040836, 73.61029937},
         A::Ply,
         361,
         false,
         4000},
        {"sf16",
         {0.38036525, -2.82015070, 23.17882135, 307.36768407},
         {-2.29434733, 13.27689788, -14.26828904, 63.45318330},
         A::Ply,
         328,
         false,
         4000},
        {"sf16.1",
         {-1.06249702, 7.42016937, 0.89425629, 348.60356174},
         {-5.33122190, 39.57831533, -90.84473771, 123.40620748},
         A::Move,
         356,
         false,
         0},
        {"sf17",
         {-37.45051876, 121.19101539, -132.78783573, 420.70576692},
         {90.26261072, -137.26549898, 71.10130540, 51.35259597},
         A::Material,
         0,
         false,
         0},
    };
    return releases;
}

// The polynomials' argument m of a position: its ply (game_ply) or its material.
inline double stockfish_m(const StockfishRelease& r, int ply, int material) {
    using A = StockfishRelease::Argument;
    switch (r.argument) {
        case A::Ply:
            return std::min(240, ply) / 64.0;
        case A::Move:
            return std::clamp(ply / 2 + 1, 8, 120) / 32.0;
        case A::Material:
            return std::clamp(material, 17, 78) / 58.0;
    }
    return 0;
}

inline double stockfish_poly(const std::array<double, 4>& c, double m) {
    return (((c[0] * m + c[1]) * m + c[2]) * m) + c[3];
}

// win_rate_model(v, ...) in per mille.
inline int stockfish_win_rate(const StockfishRelease& r, int v, int ply, int material) {
    double m = stockfish_m(r, ply, material);
    double a = stockfish_poly(r.as, m), b = stockfish_poly(r.bs, m);
    double x = r.pawn_value_eg_units ? double(100 * v) / r.divisor : double(v);
    if (r.limit > 0) x = std::clamp(x, -r.limit, r.limit);
    return int(0.5 + 1000 / (1 + std::exp((a - x) / b)));
}

// The cp of "score cp C": integer division, or rounded by the material model's a.
inline int stockfish_cp(const StockfishRelease& r, int v, int ply, int material) {
    if (r.divisor != 0) return v * 100 / r.divisor;
    double a = stockfish_poly(r.as, stockfish_m(r, ply, material));
    return int(std::round(100 * v / a));
}

// The displayed evals between which the internal evals printed as cp lie, as the rule of
// `divisor` (0: rounded) makes them: [cp, cp + 1] above 0, [cp - 1, cp] below, [-1, 1] at 0;
// [cp - 0.5, cp + 0.5] where the engine rounds.
inline std::array<double, 2> cp_bracket(int divisor, int cp) {
    if (divisor == 0) return {cp - 0.5, cp + 0.5};
    if (cp > 0) return {double(cp), cp + 1.0};
    if (cp < 0) return {cp - 1.0, double(cp)};
    return {-1, 1};
}

}  // namespace wdl::testing
